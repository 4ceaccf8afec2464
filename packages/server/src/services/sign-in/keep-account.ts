/**
 * Keeping an account waiting to be deleted: the ticket of a sign-in that answered E_16
 * (services/account/deletion-gate.ts) is spent, the deletion is cancelled (`user.deletion_cancelled`)
 * and the sign-in finishes as it would have. Two confirmations at once: one spends the ticket, the
 * other is refused.
 */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import { cancelDeletion } from '../account/deletion.ts';
import { securityEvent } from '../security/events.ts';
import { spendTicket } from '../security/tickets.ts';
import { type SignedIn, type SignInRequest, signIn } from './session-answer.ts';

const EXPIRED = 'This sign-in step has expired or was already used. Sign in again.';

export const keepAccount = async (ctx: Context, ticket: string, request: SignInRequest): Promise<SignedIn> => {
  const facts = (await spendTicket(ctx, 'keep_account', ticket)) ?? fail('AC3_27', EXPIRED);
  const userId = Number(facts.subject.replace(/^user:/, ''));
  const { method, agreement_ids: ids, pid, second_step_done: secondStepDone } = facts.data;
  const user = (Number.isSafeInteger(userId) && (await findUserById(ctx.db, userId))) || fail('AC3_27', EXPIRED);
  if (await cancelDeletion(ctx, user)) {
    securityEvent(ctx, { event: 'account_deletion_cancelled', userId, ip: request.ip });
  }
  const kept = (await findUserById(ctx.db, userId)) ?? fail('AC3_27', EXPIRED);
  const agreements = Array.isArray(ids) ? ids.filter(Number.isSafeInteger) : [];
  return signIn(
    ctx,
    kept,
    typeof method === 'string' ? method : 'password',
    { ...request, pid: typeof pid === 'string' ? pid : undefined, secondStepDone: secondStepDone === true },
    agreements,
  );
};
