/**
 * Whether a sign-in's first step needs a second one (the server answered MFA_REQUIRED with a
 * challenge). Kept apart from the second step's form; the second-factor calls load only when a first
 * step fails, not with the first screen.
 */
import type { SecondFactorChallenge } from '@edupass/protocol';

export interface PendingSecondStep {
  challenge: SecondFactorChallenge;
  /** The first step's method, for the sign-in's telemetry. */
  method: string;
}

/** The first step's result, or undefined when the server asked for the second step (handed to `onSecondStep`). */
export const askingSecondStep = async <R>(
  first: Promise<R>,
  method: string,
  onSecondStep: (pending: PendingSecondStep) => void,
): Promise<R | undefined> => {
  try {
    return await first;
  } catch (error) {
    const { secondFactorChallengeOf } = await import('@edupass/account/second-factor');
    const challenge = secondFactorChallengeOf(error);
    if (!challenge) throw error;
    onSecondStep({ challenge, method });
    return undefined;
  }
};
