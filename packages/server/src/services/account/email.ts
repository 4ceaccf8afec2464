/**
 * The account's e-mail address, added or changed by a code sent to the new address (the route asks
 * for step-up first). The change is a `user.updated` event; the old phone and address are told.
 */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserByEmail } from '../../store/account/users.ts';
import type { User } from '../../store/schema.ts';
import { verifyCode } from '../codes/one-time-codes.ts';
import { noticeAccountChange } from './notices.ts';
import { currentUser, saveUser } from './users.ts';

/** Whether `user` may take the address (lower case): resolves, or fails with the reason. */
export const assertEmailFreeFor = async (ctx: Context, address: string, user: User) => {
  if (user.email === address) fail('AC3_17', "This is already the account's e-mail address.");
  const owner = await findUserByEmail(ctx.db, address);
  if (owner && owner.id !== user.id) fail('AC3_61');
};

export const bindEmail = async (ctx: Context, userId: number, email: string, captcha: string) => {
  const user = await currentUser(ctx, userId);
  const address = email.toLowerCase();
  await assertEmailFreeFor(ctx, address, user);
  await verifyCode(ctx, address, 'email_bind', captcha);
  const event = {
    type: 'user.updated',
    userId: user.id,
    product: user.pid,
    data: { changes: { email: address } },
  } as const;
  // The unique index settles a race between two accounts taking one address.
  if (!(await saveUser(ctx, user.id, { email: address, email_verified: 1, updated_at: ctx.now() }, event)))
    fail('AC3_61');
  // To the old address too: its owner learns of the change even if the new one is an attacker's.
  await noticeAccountChange(ctx, user, user.email ? 'email_changed' : 'email_bound');
};
