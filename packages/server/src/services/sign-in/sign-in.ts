import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import type { AccountStanding } from '../../store/account/standing.ts';
import { type FoundAccount, findUserAndStandingByIdentity, findUserByPhone } from '../../store/account/users.ts';
import type { User } from '../../store/schema.ts';
import { proveContact, saveUser } from '../account/users.ts';
import { verifyCode } from '../codes/one-time-codes.ts';
import { checkPasswordGuess, type PasswordGuess } from '../passwords/guesses.ts';
import { weakPasswordFlag } from '../passwords/policy.ts';
import { BELOW_POLICY, isStaff, staffPasswordProblem } from '../passwords/staff-policy.ts';
import { requireProduct } from '../platform/products.ts';
import { loginLockKey } from '../security/rate-limits.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from './session-answer.ts';
import { insertRecordedUser, newUser } from './sign-up.ts';

export interface PasswordLogin {
  identity: string;
  password: string;
  pid: string;
  agreement_ids?: number[] | undefined;
}

/**
 * The captcha gate is the caller's (guardPasswordLogin, gate.ts), in front of this; `found` is the
 * account `input.identity` names and its standing, as the gate read them, and `gate` what the gate
 * leaves to the password check: the counts a right password ends (with the lock's, in one round trip)
 * and its count of the account's run, taken with the lock's place.
 */
export const loginByPassword = async (
  ctx: Context,
  input: PasswordLogin,
  request: SignInRequest,
  found: FoundAccount | undefined,
  gate: Pick<PasswordGuess, 'resetOnRight' | 'withPlace'> = {},
): Promise<SignedIn> => {
  const user = found?.user;
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  // One count per account, whichever of its phone, username or e-mail the guesses use.
  const ok = await checkPasswordGuess(ctx, {
    lockKey: loginLockKey(user, input.identity),
    passwordHash: user?.password_hash,
    password: input.password,
    userId: user?.id,
    identity: input.identity,
    ip: request.ip,
    failure: 'login_failed',
    ...gate,
  });
  if (!found || !ok) return fail('AC3_2');
  // Read with the account, for the staff policy and the sign-in's second step and session.
  const { standing } = found;
  return signIn(
    ctx,
    await withStaffPolicyOf(ctx, await withWeakFlagOf(ctx, found.user, input.password), input.password, standing),
    'password',
    { ...request, pid: input.pid },
    agreements,
    standing,
  );
};

/**
 * The user with the weak-password flag as today's rules judge the password just typed: a password
 * set before the common-password list (or a rule) came in is reported weak from its next sign-in on.
 */
const withWeakFlagOf = async (ctx: Context, user: User, password: string): Promise<User> => {
  const weak = await weakPasswordFlag(password);
  if (weak === user.weak_password) return user;
  await saveUser(ctx, user.id, { weak_password: weak });
  return { ...user, weak_password: weak };
};

/**
 * The user with a staff password below today's staff policy marked due for a change (staff-policy.ts):
 * the session that follows may only change it. Checked here, where the password was typed, before a
 * second factor is asked for.
 */
const withStaffPolicyOf = async (
  ctx: Context,
  user: User,
  password: string,
  standing: AccountStanding,
): Promise<User> => {
  if (user.password_changed_at === BELOW_POLICY || staffPasswordProblem(ctx, password) === undefined) return user;
  if (!(await isStaff(ctx, user, standing))) return user;
  await saveUser(ctx, user.id, { password_changed_at: BELOW_POLICY });
  return { ...user, password_changed_at: BELOW_POLICY };
};

export interface PhoneLogin {
  phone_number: string;
  captcha: string;
  pid: string;
  agreement_ids?: number[] | undefined;
}

export const loginByPhone = async (ctx: Context, input: PhoneLogin, request: SignInRequest): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  // The code first (see checkResetCode): an unregistered phone has none, so it reads as a wrong code.
  await verifyCode(ctx, input.phone_number, 'login', input.captcha);
  // Read with its standing (second factors, staff), as a password sign-in's account is.
  const found = await findUserAndStandingByIdentity(ctx.db, input.phone_number);
  if (!found) return fail('AC3_1');
  await proveContact(ctx, found.user, 'phone');
  return signIn(ctx, found.user, 'phone', request, agreements, found.standing);
};

export interface EmailLogin {
  email: string;
  captcha: string;
  pid: string;
  agreement_ids?: number[] | undefined;
}

/** Signs in with a code sent to the account's e-mail; an unknown address had none: AC3_13 like a wrong code. */
export const loginByEmail = async (ctx: Context, input: EmailLogin, request: SignInRequest): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  const address = input.email.toLowerCase();
  await verifyCode(ctx, address, 'email_login', input.captcha);
  const found = await findUserAndStandingByIdentity(ctx.db, address);
  if (!found) return fail('AC3_13');
  await proveContact(ctx, found.user, 'email');
  return signIn(ctx, found.user, 'email', request, agreements, found.standing);
};

/** Signs in with a code, creating the account on first use; reports `is_first_login`. */
export const loginByPhoneSilently = async (
  ctx: Context,
  input: PhoneLogin,
  request: SignInRequest,
): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  await verifyCode(ctx, input.phone_number, 'silence', input.captcha);
  const found = await findUserAndStandingByIdentity(ctx.db, input.phone_number);
  const firstLogin = found === undefined;
  // A parallel first sign-in may create the user between the lookup and the insert: read it back.
  const user =
    found?.user ??
    (await insertRecordedUser(ctx, newUser(ctx, { pid: input.pid, phone: input.phone_number }), 'phone_silent')) ??
    (await findUserByPhone(ctx.db, input.phone_number));
  if (!user) return fail('E_3');
  await proveContact(ctx, user, 'phone');
  const signedIn = await signIn(ctx, user, 'phone_silent', request, agreements, found?.standing);
  return { ...signedIn, result: { ...signedIn.result, is_first_login: firstLogin } };
};
