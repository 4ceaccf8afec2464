import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserByPhone } from '../../store/account/users.ts';
import { revokeBadges } from '../../store/edu/school/pupils.ts';
import type { User } from '../../store/schema.ts';
import { verifyCode } from '../codes/one-time-codes.ts';
import { dropGuardianCodes } from '../edu/family/guardian-links.ts';
import { noticeAccountChange } from './notices.ts';
import { currentUser, saveUser } from './users.ts';

const assertFreeFor = async (ctx: Context, phone: string, user: User) => {
  const owner = await findUserByPhone(ctx.db, phone);
  if (owner && owner.id !== user.id) fail('AC3_26');
};

const savePhone = async (ctx: Context, user: User, phone: string) => {
  // The unique index settles a race between two accounts binding one number.
  const event = { type: 'phone.changed', userId: user.id, product: user.pid, data: { phone } } as const;
  if (!(await saveUser(ctx, user.id, { phone, phone_verified: 1, updated_at: ctx.now() }, event))) fail('AC3_26');
};

/** Whether the signed-in user can bind this number: resolves, or fails with the reason. */
export const checkPhoneBind = async (ctx: Context, userId: number, phone: string) => {
  const user = await currentUser(ctx, userId);
  if (user.phone) fail('AC3_14');
  await assertFreeFor(ctx, phone, user);
};

export const bindPhone = async (ctx: Context, userId: number, phone: string, captcha: string) => {
  const user = await currentUser(ctx, userId);
  if (user.phone) fail('AC3_14');
  await assertFreeFor(ctx, phone, user);
  await verifyCode(ctx, phone, 'bind', captcha);
  await savePhone(ctx, user, phone);
  // A pupil's account is the pupil's from now on: the login cards the school printed open it no more,
  // and the guardian codes opened before (on a card, or by whoever could sign in as the pupil) link no one.
  await revokeBadges(ctx.db, [user.id], ctx.now());
  await dropGuardianCodes(ctx.db, [user.id]);
  await noticeAccountChange(ctx, user, 'phone_bound');
};

export const rebindPhone = async (ctx: Context, userId: number, phone: string, captcha: string) => {
  const user = await currentUser(ctx, userId);
  if (!user.phone) fail('AC3_7');
  if (user.phone === phone) fail('AC3_17');
  await assertFreeFor(ctx, phone, user);
  await verifyCode(ctx, phone, 'change', captcha);
  await savePhone(ctx, user, phone);
  // To the old number: its owner learns of the change even if the new one is an attacker's.
  await noticeAccountChange(ctx, user, 'phone_changed');
};
