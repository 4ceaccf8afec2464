import type { Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserById, markProved, updateUser } from '../../store/account/users.ts';
import type { User, UsersTable } from '../../store/schema.ts';
import { revokeOtherSessions, revokeUserSessions } from '../../store/sessions/sessions.ts';
import { endSessions } from '../sessions/ending.ts';
import type { SessionRef } from '../sessions/tokens.ts';
import { type AccountEvent, inTransaction, recordEvent } from '../webhooks/events.ts';

/** The signed-in user; a session whose user is gone counts as signed out. */
export const currentUser = async (ctx: Context, userId: number): Promise<User> =>
  (await findUserById(ctx.db, userId)) ?? fail('E_0');

/** Refuses a blocked account with AC3_44. */
export const assertNotBlocked = (user: User | undefined) => {
  if (user?.blocked_at != null) fail('AC3_44');
};

/** A unique column clashed: the transaction is rolled back and the caller hears false. */
class UniqueClash extends Error {}

/**
 * Changes a user row; false when a unique column would be duplicated. Every change goes through
 * here, so the sessions remembered in memory (session-cache.ts) see it on the next call. With an
 * event, the change and its event are written in one transaction.
 */
export const saveUser = async (
  ctx: Context,
  userId: number,
  changes: Updateable<UsersTable>,
  event?: AccountEvent,
): Promise<boolean> => {
  try {
    if (event === undefined) return await updateUser(ctx.db, userId, changes);
    return await inTransaction(ctx, async (tx) => {
      // On PostgreSQL a unique violation aborts the transaction: nothing more may run in it.
      if (!(await updateUser(tx.db, userId, changes))) throw new UniqueClash();
      await recordEvent(tx, event);
      return true;
    });
  } catch (error) {
    if (error instanceof UniqueClash) return false;
    throw error;
  } finally {
    ctx.sessions.forgetUser(userId);
  }
};

/**
 * Records that a code sent to the user's phone or e-mail was just used (store/account/users.ts
 * `markProved`), and where that changed the row, forgets the one remembered in memory, so applications
 * read it proved at once. One proved already is left remembered: the sign-in's product reads it from
 * memory, not again from the database.
 */
export const proveContact = async (ctx: Context, user: User, channel: 'phone' | 'email') => {
  if (await markProved(ctx.db, user, channel)) ctx.sessions.forgetUser(user.id);
};

/** Ends every session of a user, in the database and in memory, with a `session.ended` event. */
export const endAllSessions = (ctx: Context, user: Pick<User, 'id' | 'pid'>, reason: string) =>
  endSessions(ctx, user, (db, now) => revokeUserSessions(db, user.id, now), { sessions: 'all', reason });

/** Ends every session of the user but the caller's. */
// The ended sessions are known by their stored keys only: all of the user's remembered ones are forgotten.
export const endOtherSessions = (ctx: Context, keep: SessionRef & { user: Pick<User, 'pid'> }) =>
  endSessions(
    ctx,
    { id: keep.userId, pid: keep.user.pid },
    (db, now) => revokeOtherSessions(db, keep.userId, keep.sessionId, now),
    { sessions: 'others', reason: 'signed_out_elsewhere' },
  );
