/**
 * Deleting an account, by its user (after a recent proof, like every irreversible change) or by an
 * operator. The user row and everything naming it go in one transaction with the `user.deleted` webhook
 * event, so sites hear of exactly the deletions that happened; every session ends at once (the session
 * cache forgets the user). Usage events keep the number they were reported under, which no longer names
 * anyone, until retention removes them.
 */
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { deleteUserRows, findUserById } from '../../store/account/users.ts';
import { audit } from '../admin/operations.ts';
import { endApplicationSessions } from '../identity/application-sessions.ts';
import { securityEvent } from '../security/events.ts';
import { inTransaction, recordEvent } from '../webhooks/events.ts';

export type DeletedBy = 'user' | 'operator';

/** Deletes the user; AC3_3 when there is none (deleted a moment ago by another request). */
export const deleteAccount = async (ctx: Context, userId: number, by: DeletedBy) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
  try {
    await inTransaction(ctx, async (tx) => {
      if (!(await deleteUserRows(tx.db, user.id))) fail('AC3_3');
      await endApplicationSessions(tx, user.id);
      await recordEvent(tx, { type: 'user.deleted', userId: user.id, product: user.pid, data: { deleted_by: by } });
    });
  } finally {
    ctx.sessions.forgetUser(user.id);
  }
  securityEvent(ctx, { event: 'account_deleted', userId: user.id, reason: `deleted by ${by}` });
};

/** An operator deletes a user's account (never their own: that is the account centre's, with a proof). */
export const deleteUserByOperator = async (ctx: Context, operatorId: number, userId: number) => {
  if (userId === operatorId) throw invalidRequest('Operators cannot delete their own account here.');
  await deleteAccount(ctx, userId, 'operator');
  await audit(ctx, operatorId, 'user.delete', `user:${userId}`);
};
