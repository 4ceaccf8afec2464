/**
 * Setting, changing and resetting passwords. A reset ends every session of the user, and so does a
 * change through the older routes (their clients drop their tokens after it); a change that keeps the
 * caller's session ends the others only when the user asks, in the transaction that sets the password.
 */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserByEmail, findUserById, findUserByPhone } from '../../store/account/users.ts';
import { pupilChosePassword } from '../../store/edu/school/pupils.ts';
import type { User } from '../../store/schema.ts';
import { revokeOtherSessions } from '../../store/sessions/sessions.ts';
import { type AccountChange, noticeAccountChange } from '../account/notices.ts';
import { assertNotBlocked, currentUser, endAllSessions, proveContact, saveUser } from '../account/users.ts';
import { verifyCode } from '../codes/one-time-codes.ts';
import { clearLoginFailures, loginLockKey } from '../security/rate-limits.ts';
import { issueTicket, spendTicket } from '../security/tickets.ts';
import { revokeAndRecord } from '../sessions/ending.ts';
import { passwordFields } from '../sign-in/sign-up.ts';
import { inTransaction } from '../webhooks/events.ts';
import { assertHashRoom } from './argon2.ts';
import { checkPasswordGuess } from './guesses.ts';
import { assertPasswordAllowed } from './policy.ts';
import { assertStaffPassword, keepReplacedPassword } from './staff-policy.ts';

const RESET_TICKET_TTL = 10 * 60;

/**
 * What a password change does to the sessions: `all` ends every one; `none` ends none; `{ keep }` keeps
 * the caller's session and ends the others.
 */
export type SessionsAfterChange = 'all' | 'none' | { keep: string };

/** The change keeps the session `keep` (the caller's); `endOthers`: the user chose to sign out the rest. */
export const keeping = (keep: string, endOthers: boolean): SessionsAfterChange => (endOthers ? { keep } : 'none');

const setPassword = async (
  ctx: Context,
  user: User,
  password: string,
  { sessions, change }: { sessions: SessionsAfterChange; change: AccountChange },
) => {
  // A staff member's password meets the staff policy and repeats none of their recent ones.
  const staff = await assertStaffPassword(ctx, user, password);
  const fields = await passwordFields(ctx, password);
  try {
    await inTransaction(ctx, async (tx) => {
      if (staff) await keepReplacedPassword(tx, user);
      await saveUser(
        tx,
        user.id,
        { ...fields, password_changed_at: ctx.now(), updated_at: ctx.now() },
        {
          type: 'password.changed',
          userId: user.id,
          product: user.pid,
          data: { reason: change === 'password_reset' ? 'reset' : 'changed', sessions_ended: sessions !== 'none' },
        },
      );
      await pupilChosePassword(tx.db, user.id, tx.now());
      if (sessions === 'all') await endAllSessions(tx, user, 'password_changed');
      else if (sessions !== 'none') await endOthersInTransaction(tx, user, sessions.keep);
    });
  } finally {
    // Forgotten again after the commit: a read between the first forget and the commit saw the old rows.
    ctx.sessions.forgetUser(user.id);
  }
  await noticeAccountChange(ctx, user, change);
};

const endOthersInTransaction = (tx: Context, user: User, keep: string) =>
  revokeAndRecord(tx, user, (db, now) => revokeOtherSessions(db, user.id, keep, now), {
    sessions: 'others',
    reason: 'password_changed',
  });

export const initPassword = async (ctx: Context, userId: number, password: string, confirm: string) => {
  const user = await currentUser(ctx, userId);
  if (user.password_hash !== null) fail('AC3_11');
  if (password !== confirm) fail('AC3_10');
  await assertPasswordAllowed(password);
  await setPassword(ctx, user, password, { sessions: 'none', change: 'password_changed' });
};

export const changePassword = async (
  ctx: Context,
  userId: number,
  input: { old_password: string; password: string; confirm_password: string },
  ip?: string,
  sessions: SessionsAfterChange = 'all',
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
  await setPassword(ctx, user, input.password, { sessions, change: 'password_changed' });
};

export const changePasswordByPhone = async (
  ctx: Context,
  userId: number,
  input: { phone_number: string; captcha: string; password: string },
  sessions: SessionsAfterChange = 'all',
) => {
  const user = await currentUser(ctx, userId);
  if (!user.phone) fail('AC3_7');
  if (user.phone !== input.phone_number) fail('AC3_8');
  await assertPasswordAllowed(input.password);
  await verifyCode(ctx, input.phone_number, 'password_update', input.captcha);
  await setPassword(ctx, user, input.password, { sessions, change: 'password_changed' });
};

/** The ticket the reset step takes, for the account a checked code proved; `missing` when it is gone. */
const resetTicketFor = (ctx: Context, user: User | undefined, missing: 'AC3_1' | 'AC3_13'): Promise<string> => {
  if (!user) return fail(missing);
  assertNotBlocked(user);
  return issueTicket(ctx, 'reset', String(user.id), RESET_TICKET_TTL);
};

/** Proves the phone for a reset: the ticket the reset step takes. */
export const checkResetCode = async (ctx: Context, phone: string, captcha: string): Promise<string> => {
  // The code first: no code goes to an unregistered phone, so its check says AC3_13 like any wrong
  // code, instead of telling an unlimited prober which numbers are registered.
  await verifyCode(ctx, phone, 'reset', captcha);
  const user = await findUserByPhone(ctx.db, phone);
  if (user) await proveContact(ctx, user, 'phone');
  return resetTicketFor(ctx, user, 'AC3_1');
};

/** Proves the account's e-mail for a reset (the same ticket); an unknown address has no code: AC3_13. */
export const checkEmailResetCode = async (ctx: Context, email: string, captcha: string): Promise<string> => {
  const address = email.toLowerCase();
  await verifyCode(ctx, address, 'email_reset', captcha);
  const user = await findUserByEmail(ctx.db, address);
  if (user) await proveContact(ctx, user, 'email');
  return resetTicketFor(ctx, user, 'AC3_13');
};

export const resetPassword = async (
  ctx: Context,
  input: { ticket: string; password: string; confirm_password: string },
) => {
  if (input.password !== input.confirm_password) fail('AC3_10');
  await assertPasswordAllowed(input.password);
  // A crowd at the hashes answers E_10 before the ticket is spent, so the same ticket works once asked again.
  assertHashRoom();
  const facts = await spendTicket(ctx, 'reset', input.ticket);
  const user = facts && (await findUserById(ctx.db, Number(facts.subject)));
  if (!user) return fail('AC3_27');
  await setPassword(ctx, user, input.password, { sessions: 'all', change: 'password_reset' });
  // A successful reset lifts a lock from earlier wrong guesses.
  await clearLoginFailures(ctx, loginLockKey(user, ''));
};
