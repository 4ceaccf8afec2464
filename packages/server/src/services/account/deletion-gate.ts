/**
 * A sign-in to an account waiting to be deleted (services/account/deletion.ts) does not start a
 * session: once all its steps passed (second factor included) it answers E_16 with the erasure date
 * and a single-use ticket bound to the account and that sign-in, which `keepAccount`
 * (services/sign-in/keep-account.ts) spends to keep the account and finish the sign-in.
 */
import type { Context } from '../../context.ts';
import { DeletionPending, fail } from '../../errors.ts';
import type { User } from '../../store/schema.ts';
import { issueTicket } from '../security/tickets.ts';

const GUARDIAN_DELETION =
  'Your guardian asked for this account to be deleted. Only your guardian can stop it, from their guardian page.';

const MERGED =
  'Your school merged this account into your other account. Sign in with that one (your school can tell you how).';

/** Long enough to read the notice and choose; the sign-in is asked again after. */
export const KEEP_TICKET_SECONDS = 600;

/** What the finished sign-in needs again: how it was made, for which product and agreements. */
export interface SignInStep {
  method: string;
  agreement_ids: number[];
  pid?: string | undefined;
  second_step_done: boolean;
}

/**
 * E_16 with a keep ticket when the account is waiting to be deleted; nothing otherwise. A deletion a
 * guardian asked for offers no ticket: the account stays blocked (AC3_44) until it is erased, unless a
 * guardian stops it (services/edu/family/guardian-view.ts); nor does one the school merged into the
 * pupil's other account (services/edu/school/merge-pupils.ts), which stays blocked until it is erased.
 */
export const refuseWhileErasing = async (ctx: Context, user: User, step: SignInStep) => {
  if (user.erase_at === null) return;
  if (user.erase_requested_by === 'guardian_request') fail('AC3_44', GUARDIAN_DELETION);
  if (user.erase_requested_by === 'merged') fail('AC3_44', MERGED);
  const ticket = await issueTicket(ctx, 'keep_account', `user:${user.id}`, KEEP_TICKET_SECONDS, { ...step });
  throw new DeletionPending(ticket, user.erase_at);
};
