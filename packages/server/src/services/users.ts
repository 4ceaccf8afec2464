import type { Updateable } from 'kysely';
import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import type { User, UsersTable } from '../store/schema.ts';
import { revokeOtherSessions, revokeUserSessions } from '../store/sessions.ts';
import { findUserById, updateUser } from '../store/users.ts';
import type { SessionRef } from './tokens.ts';

/** The signed-in user; a session whose user is gone counts as signed out. */
export const currentUser = async (ctx: Context, userId: number): Promise<User> =>
  (await findUserById(ctx.db, userId)) ?? fail('E_0');

/** Refuses a blocked account with AC3_44. */
export const assertNotBlocked = (user: User | undefined) => {
  if (user?.blocked_at != null) fail('AC3_44');
};

/**
 * Changes a user row; false when a unique column would be duplicated. Every change goes through
 * here, so the sessions remembered in memory (session-cache.ts) see it on the next call.
 */
export const saveUser = async (ctx: Context, userId: number, changes: Updateable<UsersTable>) => {
  try {
    return await updateUser(ctx.db, userId, changes);
  } finally {
    ctx.sessions.forgetUser(userId);
  }
};

/** Ends every session of a user, in the database and in memory. */
export const endAllSessions = async (ctx: Context, userId: number) => {
  try {
    await revokeUserSessions(ctx.db, userId, ctx.now());
  } finally {
    ctx.sessions.forgetUser(userId);
  }
};

/** Ends every session of the user but the caller's. */
export const endOtherSessions = async (ctx: Context, keep: SessionRef) => {
  try {
    await revokeOtherSessions(ctx.db, keep.userId, keep.sessionId, ctx.now());
  } finally {
    // The ended sessions are known here by their stored keys only: forget all of the user's.
    ctx.sessions.forgetUser(keep.userId);
  }
};
