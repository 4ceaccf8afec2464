/**
 * The staff password policy (GB/T 22239-2019 level 3: complexity and periodic change) for operators,
 * school admins and teachers; pupils and families keep the wire's 6–20 rule alone. Set in
 * config/staff-identity-config.ts: a length, a number of kinds of character, a change interval and
 * no reuse of the last N passwords (the current one and the hashes in `password_history`).
 *
 * Enforced where a password is set (every route of changes.ts answers E_20 with the rule missed) and
 * at sign-in: a staff member whose password is past the interval, or who signed in with one below the
 * policy, gets a session that may only change it (E_21 for everything else, route-kit.ts), and the
 * sign-in's answer says `password_expired: true` so the console and the web client go to the form.
 */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { keepPreviousPassword, previousPasswordHashes } from '../../store/account/staff.ts';
import { type AccountStanding, accountStanding } from '../../store/account/standing.ts';
import type { User } from '../../store/schema.ts';
import { OPERATOR_ROLE } from '../admin/operators.ts';
import { verifyPassword } from './argon2.ts';

const DAY_MS = 86_400_000;

/** The four kinds of character the policy counts. */
const KINDS = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/];

/**
 * An operator, or an approved school admin or teacher, or a teacher of a class; `standing`: the
 * account's, when the caller read it already (a sign-in does).
 */
export const isStaff = async (
  ctx: Context,
  user: Pick<User, 'id' | 'role'>,
  standing?: AccountStanding,
): Promise<boolean> =>
  user.role === OPERATOR_ROLE || (standing ?? (await accountStanding(ctx.db, user.id))).schoolStaff;

/** What the password misses of the policy's length and kinds, in words; undefined when it meets them. */
export const staffPasswordProblem = (ctx: Context, password: string): string | undefined => {
  const { minLength, classes } = ctx.config.staffPassword;
  const kinds = KINDS.filter((kind) => kind.test(password)).length;
  if (password.length >= minLength && kinds >= classes) return undefined;
  return `Staff passwords need at least ${minLength} characters and ${classes} of the 4 kinds: lower-case letters, capitals, digits, symbols.`;
};

/** Whether `password` is the current one or one of the previous ones the policy remembers. */
const recentlyUsed = async (ctx: Context, user: User, password: string): Promise<boolean> => {
  const { history } = ctx.config.staffPassword;
  if (history === 0) return false;
  const hashes = [user.password_hash, ...(await previousPasswordHashes(ctx.db, user.id, history - 1))];
  for (const hash of hashes) if (hash !== null && (await verifyPassword(hash, password))) return true;
  return false;
};

/**
 * Refuses a staff member's new password that misses the policy (E_20 naming the rule); nothing for
 * anyone else. Answers whether the user is staff, for `keepReplacedPassword`.
 */
export const assertStaffPassword = async (ctx: Context, user: User, password: string): Promise<boolean> => {
  if (!(await isStaff(ctx, user))) return false;
  const problem = staffPasswordProblem(ctx, password);
  if (problem !== undefined) fail('E_20', problem);
  if (await recentlyUsed(ctx, user, password)) {
    fail(
      'E_20',
      `Choose a password you have not used recently: not one of your last ${ctx.config.staffPassword.history}.`,
    );
  }
  return true;
};

/** Keeps the password a staff member replaces (in the change's transaction), as many as the policy remembers. */
export const keepReplacedPassword = async (tx: Context, user: User) => {
  const keep = tx.config.staffPassword.history - 1;
  if (user.password_hash === null || keep <= 0) return;
  await keepPreviousPassword(tx.db, user.id, user.password_hash, tx.now(), keep);
};

/** `password_changed_at` of a staff password found below the policy at sign-in: due at once. */
export const BELOW_POLICY = 0;

/** Whether a staff member's password must be changed before anything else. */
export const staffPasswordExpired = (
  ctx: Context,
  user: Pick<User, 'password_hash' | 'password_changed_at' | 'created_at'>,
): boolean => {
  if (user.password_hash === null) return false;
  const changed = user.password_changed_at === null ? Number(user.created_at) : Number(user.password_changed_at);
  if (changed === BELOW_POLICY) return true;
  const { maxAgeDays } = ctx.config.staffPassword;
  return maxAgeDays > 0 && ctx.now() - changed > maxAgeDays * DAY_MS;
};
