import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import type { User } from '../store/schema.ts';
import { findUserById } from '../store/users.ts';

/** The signed-in user; a session whose user is gone counts as signed out. */
export const currentUser = async (ctx: Context, userId: number): Promise<User> =>
  (await findUserById(ctx.db, userId)) ?? fail('E_0');

/** Refuses a blocked account with AC3_44. */
export const assertNotBlocked = (user: User | undefined) => {
  if (user?.blocked_at != null) fail('AC3_44');
};
