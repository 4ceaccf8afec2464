import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import { findUserByIdentity, findUserByPhone, insertUser } from '../store/users.ts';
import { verifyCode } from './codes.ts';
import { verifyAgainstNothing, verifyPassword } from './passwords.ts';
import { requireProduct } from './products.ts';
import { awaitLoginAllowance, clearLoginFailures, loginLockKey, recordLoginFailure } from './rate-limits.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from './sign-in.ts';
import { newUser } from './sign-up.ts';

export interface PasswordLogin {
  identity: string;
  password: string;
  pid: string;
  agreement_ids?: number[] | undefined;
}

/** The captcha gate is the caller's (guardPasswordLogin, captcha-gate.ts), in front of this. */
export const loginByPassword = async (
  ctx: Context,
  input: PasswordLogin,
  request: SignInRequest,
): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  const user = await findUserByIdentity(ctx.db, input.identity);
  // One count per account, whichever of its phone, username or e-mail the guesses use.
  const lockKey = loginLockKey(user, input.identity);
  await awaitLoginAllowance(ctx, lockKey);
  const ok = user?.password_hash
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyAgainstNothing(input.password);
  if (!user || !ok) {
    await recordLoginFailure(ctx, lockKey);
    return fail('AC3_2');
  }
  await clearLoginFailures(ctx, lockKey);
  return signIn(ctx, user, 'password', request, agreements);
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
  const user = await findUserByPhone(ctx.db, input.phone_number);
  if (!user) return fail('AC3_1');
  return signIn(ctx, user, 'phone', request, agreements);
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
  let user = await findUserByPhone(ctx.db, input.phone_number);
  const firstLogin = user === undefined;
  // A parallel first sign-in may create the user between the lookup and the insert: read it back.
  user ??=
    (await insertUser(ctx.db, newUser(ctx, { pid: input.pid, phone: input.phone_number }))) ??
    (await findUserByPhone(ctx.db, input.phone_number));
  if (!user) return fail('E_3');
  const signedIn = await signIn(ctx, user, 'phone_silent', request, agreements);
  return { ...signedIn, result: { ...signedIn.result, is_first_login: firstLogin } };
};
