/**
 * Whether a sign-in's steps passed but it needs one more (kept apart from the screens that ask it; the
 * calls load only when a first step fails, not with the first screen): a second factor (the server
 * answered MFA_REQUIRED with a challenge), or keeping an account waiting to be deleted
 * (ACCOUNT_DELETING with the ticket that keeps it).
 */
import type { DeletionScheduled, SecondFactorChallenge } from '@edupass/protocol';

export interface PendingSecondStep {
  /** The second factor asked for. */
  challenge?: SecondFactorChallenge;
  /** The account is waiting to be deleted: when, and the ticket that keeps it. */
  deletion?: DeletionScheduled;
  /** The first step's method, for the sign-in's telemetry. */
  method: string;
}

/** The first step's result, or undefined when the server asked for another step (handed to `onSecondStep`). */
export const askingSecondStep = async <R>(
  first: Promise<R>,
  method: string,
  onSecondStep: (pending: PendingSecondStep) => void,
): Promise<R | undefined> => {
  try {
    return await first;
  } catch (error) {
    const [{ secondFactorChallengeOf }, { deletionScheduledOf }] = await Promise.all([
      import('@edupass/account/second-factor'),
      import('@edupass/account/delete-account'),
    ]);
    const challenge = secondFactorChallengeOf(error);
    const deletion = deletionScheduledOf(error);
    if (!challenge && !deletion) throw error;
    onSecondStep({ ...(challenge ? { challenge } : {}), ...(deletion ? { deletion } : {}), method });
    return undefined;
  }
};
