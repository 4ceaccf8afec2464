import type { Context } from '../context.ts';
import { ApiError, fail } from '../errors.ts';
import type { NewUser, User } from '../store/schema.ts';
import { findUserByEmail, findUserByPhone, insertUser } from '../store/users.ts';
import { useCode, verifyCode } from './codes.ts';
import { assertPasswordAllowed, weakPasswordFlag } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import { requireProduct } from './products.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from './sign-in.ts';
import { issueTicket, spendTicket } from './tickets.ts';

const EMAIL_TICKET_TTL = 30 * 60;

export const newUser = (ctx: Context, fields: Partial<NewUser> & { pid: string }): NewUser => ({
  phone: null,
  email: null,
  username: null,
  username_key: null,
  password_hash: null,
  weak_password: 0,
  nickname: null,
  avatar_url: '',
  fullname: '',
  sex: null,
  birthday: null,
  qq: '',
  description: '',
  grade: null,
  role: 'user',
  blocked_at: null,
  created_at: ctx.now(),
  updated_at: ctx.now(),
  ...fields,
});

/** The columns of a new password; a common one is refused (E_8) even if a caller forgot to check first. */
export const passwordFields = async (password: string) => {
  await assertPasswordAllowed(password);
  return { password_hash: await hashPassword(password), weak_password: await weakPasswordFlag(password) };
};

/** Inserts a user; a unique clash (a parallel sign-up won) is answered with `clash`. */
export const createUser = async (ctx: Context, user: NewUser, clash: ApiError): Promise<User> =>
  (await insertUser(ctx.db, user)) ?? Promise.reject(clash);

export interface PhoneSignUp {
  phone_number: string;
  captcha: string;
  password: string;
  agreement_ids: number[];
  pid: string;
}

export const registerByPhone = async (ctx: Context, input: PhoneSignUp, request: SignInRequest): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  if (await findUserByPhone(ctx.db, input.phone_number)) fail('AC3_0');
  await assertPasswordAllowed(input.password);
  // The phone's unique index decides a parallel sign-up of the same phone: the loser hears AC3_0.
  const user = await useCode(ctx, input.phone_number, 'register', input.captcha, async () =>
    createUser(
      ctx,
      newUser(ctx, { pid: input.pid, phone: input.phone_number, ...(await passwordFields(input.password)) }),
      new ApiError('AC3_0'),
    ),
  );
  return signIn(ctx, user, 'register_phone', request, agreements);
};

/** Proves the e-mail address: the ticket that e-mail sign-up takes. */
export const checkEmailCode = async (ctx: Context, email: string, captcha: string): Promise<string> => {
  const address = email.toLowerCase();
  await verifyCode(ctx, address, 'email_register', captcha);
  return issueTicket(ctx, 'email_register', address, EMAIL_TICKET_TTL);
};

export interface EmailSignUp {
  captchaTicket: string;
  password: string;
  rePassword: string;
  pid: string;
}

export const registerByEmail = async (ctx: Context, input: EmailSignUp, request: SignInRequest): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  if (input.password !== input.rePassword) fail('AC3_10');
  await assertPasswordAllowed(input.password);
  const facts = await spendTicket(ctx, 'email_register', input.captchaTicket);
  if (!facts) return fail('AC3_27');
  if (await findUserByEmail(ctx.db, facts.subject)) fail('AC3_61');
  const user = await createUser(
    ctx,
    newUser(ctx, { pid: input.pid, email: facts.subject, ...(await passwordFields(input.password)) }),
    new ApiError('AC3_61'),
  );
  return signIn(ctx, user, 'register_email', request);
};
