/**
 * Deleting an account, by its user (after a recent proof, like every irreversible change) or by an
 * operator, in two steps so a mistaken deletion can be undone:
 * - **frozen** at once: every session ends (their access and refresh tokens with them), the
 *   applications' grants and tokens go, sign-in answers E_16 (services/account/deletion-gate.ts)
 *   and sites hear `user.deletion_scheduled`; the phone and e-mail stay taken;
 * - **erased** when ACCOUNT_DELETION_GRACE_DAYS have passed (the hourly sweep, `eraseDueAccounts`):
 *   every row naming the user (store/account/erasure.ts), the stored picture, the usage events in the
 *   events store, with `user.deleted`. With a grace of 0 days the erasure happens at once.
 * Within the grace period the owner keeps the account by signing in and confirming (sign-in/keep-account.ts).
 * Each deletion is a tracked request (data-requests.ts): opened when asked for, done when erased,
 * cancelled when kept.
 */
import { DAY_MS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { eraseApplicationGrants, eraseUserRows, forgetWebhookSequence } from '../../store/account/erasure.ts';
import { accountsDueForErasure, findUserById, lockUserRow, setErasure } from '../../store/account/users.ts';
import { countErased } from '../../store/admin/report-counters.ts';
import { markConsentEvidenceEnded } from '../../store/edu/family/guardians.ts';
import type { User } from '../../store/schema.ts';
import { audit } from '../admin/operations.ts';
import { securityEvent } from '../security/events.ts';
import { inTransaction, recordEvent } from '../webhooks/events.ts';
import { forgetAvatar } from './avatar-files.ts';
import { closeOpenRequest, openDataRequest, settleRequest } from './data-requests.ts';
import { endAllSessions } from './users.ts';

/**
 * `guardian`: a guardian refused consent; `unconfirmed`: no guardian consented in time (the sweeper);
 * `guardian_request`: a linked guardian asked for the deletion in the guardian area (with the grace period).
 */
export type DeletedBy = 'user' | 'operator' | 'guardian' | 'unconfirmed' | 'guardian_request';

/**
 * In `tx`: ends every session of the user (with `session.ended` and the back-channel logouts of the
 * applications signed in through them), then removes every grant and token the applications hold.
 */
const endEverySignIn = async (tx: Context, user: User, reason: string) => {
  await endAllSessions(tx, user, reason);
  await eraseApplicationGrants(tx.db, user.id);
};

/**
 * Deletions no grace period applies to: a child whose guardian refused, or whom no guardian consented
 * for in time, must not be kept by signing in again — nobody agreed to the account holding their data.
 */
const ERASED_AT_ONCE: ReadonlySet<DeletedBy> = new Set(['guardian', 'unconfirmed']);

/**
 * Deletes the user: frozen for the grace period, or erased at once without one. AC3_3 when there is
 * no such user; a deletion already waiting is left as it is (one event, one date).
 */
export const deleteAccount = async (ctx: Context, userId: number, by: DeletedBy) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
  if (ctx.config.accountDeletionGraceDays === 0 || ERASED_AT_ONCE.has(by)) {
    if (!(await eraseAccount(ctx, user, by))) fail('AC3_3');
    return;
  }
  const eraseAt = ctx.now() + ctx.config.accountDeletionGraceDays * DAY_MS;
  let frozen = false;
  try {
    frozen = await inTransaction(ctx, async (tx) => {
      if (!(await setErasure(tx.db, user.id, { at: eraseAt, by }))) return false;
      await endEverySignIn(tx, user, 'deletion_scheduled');
      await openDataRequest(tx, user.id, 'deletion', by);
      await recordEvent(tx, {
        type: 'user.deletion_scheduled',
        userId: user.id,
        product: user.pid,
        data: { erase_at: eraseAt, deleted_by: by },
      });
      return true;
    });
  } finally {
    ctx.sessions.forgetUser(user.id);
  }
  if (frozen) securityEvent(ctx, { event: 'account_deletion_scheduled', userId: user.id, reason: `by ${by}` });
};

/**
 * Erases the user and everything naming them; false when another request erased them first or, with
 * `due`, when the account is not waiting to be erased by then (its owner kept it). Usage events go
 * after the commit (they may live in another database); should that fail, it is logged, and the
 * events store's retention removes them in the end.
 */
const eraseAccount = async (ctx: Context, user: User, by: string, due?: number): Promise<boolean> => {
  let erased = false;
  try {
    erased = await inTransaction(ctx, async (tx) => {
      if (ctx.store.dialect === 'postgres') await lockUserRow(tx.db, user.id);
      const current = await findUserById(tx.db, user.id);
      if (current === undefined) return false;
      if (due !== undefined && (current.erase_at === null || current.erase_at > due)) return false;
      await endEverySignIn(tx, current, 'account_deleted');
      await eraseUserRows(tx.db, current);
      await countErased(tx.db, current, ctx.now());
      await markConsentEvidenceEnded(tx.db, user.id, ctx.now());
      await settleRequest(tx, user.id, 'deletion', by);
      await recordEvent(tx, { type: 'user.deleted', userId: user.id, product: user.pid, data: { deleted_by: by } });
      await forgetWebhookSequence(tx.db, user.id);
      return true;
    });
  } finally {
    ctx.sessions.forgetUser(user.id);
  }
  if (!erased) return false;
  // A child's photo does not outlive the account.
  await forgetAvatar(ctx, user);
  try {
    await ctx.events.eraseUser(user.id);
  } catch (error) {
    ctx.logger.error({ err: error, user: user.id }, 'usage events of an erased account could not be deleted');
  }
  securityEvent(ctx, { event: 'account_deleted', userId: user.id, reason: `deleted by ${by}` });
  return true;
};

/** Accounts erased per sweep batch: each is its own transaction. */
const ERASE_BATCH = 50;

/** The sweep's turn: erases the accounts whose grace period has ended, batch by batch. */
export const eraseDueAccounts = async (ctx: Context, now: number): Promise<{ accounts: number }> => {
  let accounts = 0;
  for (;;) {
    const due = await accountsDueForErasure(ctx.db, now, ERASE_BATCH);
    for (const user of due) {
      if (await eraseAccount(ctx, user, user.erase_requested_by ?? 'user', now)) accounts++;
    }
    if (due.length < ERASE_BATCH) return { accounts };
  }
};

/**
 * The account is kept (its owner signed in and confirmed within the grace period): no longer frozen,
 * with `user.deletion_cancelled`. False when it was not waiting to be erased (kept or erased already).
 */
export const cancelDeletion = (ctx: Context, user: User) =>
  inTransaction(ctx, async (tx) => {
    if (ctx.store.dialect === 'postgres') await lockUserRow(tx.db, user.id);
    if (!(await setErasure(tx.db, user.id, null))) return false;
    await closeOpenRequest(tx, user.id, 'deletion', 'cancelled');
    await recordEvent(tx, { type: 'user.deletion_cancelled', userId: user.id, product: user.pid });
    return true;
  });

/** An operator deletes a user's account (never their own: that is the account centre's, with a proof). */
export const deleteUserByOperator = async (ctx: Context, operatorId: number, userId: number) => {
  if (userId === operatorId) throw invalidRequest('Operators cannot delete their own account here.');
  await deleteAccount(ctx, userId, 'operator');
  await audit(ctx, operatorId, 'user.delete', `user:${userId}`);
};
