/** Setting, changing and resetting passwords. A change or reset ends every session of the user. */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserById, findUserByPhone } from '../../store/account/users.ts';
import type { User } from '../../store/schema.ts';
import { type AccountChange, noticeAccountChange } from '../account/notices.ts';
import { assertNotBlocked, currentUser, endAllSessions, saveUser } from '../account/users.ts';
import { verifyCode } from '../codes/one-time-codes.ts';
import { clearLoginFailures, loginLockKey } from '../security/rate-limits.ts';
import { issueTicket, spendTicket } from '../security/tickets.ts';
import { passwordFields } from '../sign-in/sign-up.ts';
import { inTransaction } from '../webhooks/events.ts';
import { checkPasswordGuess } from './guesses.ts';
import { assertPasswordAllowed } from './policy.ts';

const RESET_TICKET_TTL = 10 * 60;

const setPassword = async (
  ctx: Context,
  user: User,
  password: string,
  { endSessions, change }: { endSessions: boolean; change: AccountChange },
) => {
  const fields = await passwordFields(password);
  await inTransaction(ctx, async (tx) => {
    await saveUser(
      tx,
      user.id,
      { ...fields, updated_at: ctx.now() },
      {
        type: 'password.changed',
        userId: user.id,
        product: user.pid,
        data: { reason: change === 'password_reset' ? 'reset' : 'changed', sessions_ended: endSessions },
      },
    );
    if (endSessions) await endAllSessions(tx, user, 'password_changed');
  });
  await noticeAccountChange(ctx, user, change);
};

export const initPassword = async (ctx: Context, userId: number, password: string, confirm: string) => {
  const user = await currentUser(ctx, userId);
  if (user.password_hash !== null) fail('AC3_11');
  if (password !== confirm) fail('AC3_10');
  await assertPasswordAllowed(password);
  await setPassword(ctx, user, password, { endSessions: false, change: 'password_changed' });
};

export const changePassword = async (
  ctx: Context,
  userId: number,
  input: { old_password: string; password: string; confirm_password: string },
  ip?: string,
) => {
  const user = await currentUser(ctx, userId);
  if (user.password_hash === null) fail('AC3_16', 'No password is set yet; set the first password instead.');
  if (input.password !== input.confirm_password) fail('AC3_10');
  await assertPasswordAllowed(input.password);
  // Guessing the old password is a login attempt in disguise: same slow-down and lock.
  const ok = await checkPasswordGuess(ctx, {
    lockKey: loginLockKey(user, ''),
    passwordHash: user.password_hash,
    password: input.old_password,
    userId,
    ip,
    failure: 'login_failed',
  });
  if (!ok) fail('AC3_9');
  await setPassword(ctx, user, input.password, { endSessions: true, change: 'password_changed' });
};

export const changePasswordByPhone = async (
  ctx: Context,
  userId: number,
  input: { phone_number: string; captcha: string; password: string },
) => {
  const user = await currentUser(ctx, userId);
  if (!user.phone) fail('AC3_7');
  if (user.phone !== input.phone_number) fail('AC3_8');
  await assertPasswordAllowed(input.password);
  await verifyCode(ctx, input.phone_number, 'password_update', input.captcha);
  await setPassword(ctx, user, input.password, { endSessions: true, change: 'password_changed' });
};

/** Proves the phone for a reset: the ticket the reset step takes. */
export const checkResetCode = async (ctx: Context, phone: string, captcha: string): Promise<string> => {
  // The code first: no code goes to an unregistered phone, so its check says AC3_13 like any wrong
  // code, instead of telling an unlimited prober which numbers are registered.
  await verifyCode(ctx, phone, 'reset', captcha);
  const user = await findUserByPhone(ctx.db, phone);
  if (!user) return fail('AC3_1');
  assertNotBlocked(user);
  return issueTicket(ctx, 'reset', String(user.id), RESET_TICKET_TTL);
};

export const resetPassword = async (
  ctx: Context,
  input: { ticket: string; password: string; confirm_password: string },
) => {
  if (input.password !== input.confirm_password) fail('AC3_10');
  await assertPasswordAllowed(input.password);
  const facts = await spendTicket(ctx, 'reset', input.ticket);
  const user = facts && (await findUserById(ctx.db, Number(facts.subject)));
  if (!user) return fail('AC3_27');
  await setPassword(ctx, user, input.password, { endSessions: true, change: 'password_reset' });
  // A successful reset lifts a lock from earlier wrong guesses.
  await clearLoginFailures(ctx, loginLockKey(user, ''));
};
