import type { Context } from '../../context.ts';
import { ApiError, fail } from '../../errors.ts';
import { findUserByEmail, findUserByPhone, insertUser } from '../../store/account/users.ts';
import type { NewUser, User } from '../../store/schema.ts';
import { useCode, verifyCode } from '../codes/one-time-codes.ts';
import { signUpAgeColumns } from '../edu/family/age.ts';
import { assertHashRoom, hashPassword } from '../passwords/argon2.ts';
import { assertPasswordAllowed, weakPasswordFlag } from '../passwords/policy.ts';
import { requireProduct } from '../platform/products.ts';
import { issueTicket, spendTicket } from '../security/tickets.ts';
import { inTransaction, recordEvent } from '../webhooks/events.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from './session-answer.ts';

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
  birth_year_month: null,
  age_band: null,
  consent_state: null,
  created_at: ctx.now(),
  updated_at: ctx.now(),
  ...fields,
});

/** The columns of a new password; a common one is refused (E_8) even if a caller forgot to check first. */
export const passwordFields = async (ctx: Pick<Context, 'config'>, password: string) => {
  await assertPasswordAllowed(password);
  return {
    password_hash: await hashPassword(password, ctx.config.passwordHashing),
    weak_password: await weakPasswordFlag(password),
  };
};

/** The `user.created` event of a new user, in its insert's transaction (`tx`). */
export const recordUserCreated = (tx: Context, user: User, method: string) =>
  recordEvent(tx, {
    type: 'user.created',
    userId: user.id,
    product: user.pid,
    data: { method, nickname: user.nickname ?? '' },
  });

/** Inserts a user with its `user.created` event; undefined when a unique column clashed. */
export const insertRecordedUser = (ctx: Context, user: NewUser, method: string): Promise<User | undefined> =>
  inTransaction(ctx, async (tx) => {
    const created = await insertUser(tx.db, user);
    if (created !== undefined) await recordUserCreated(tx, created, method);
    return created;
  });

/** Inserts a user; a unique clash (a parallel sign-up won) is answered with `clash`. */
export const createUser = async (ctx: Context, user: NewUser, method: string, clash: ApiError): Promise<User> =>
  (await insertRecordedUser(ctx, user, method)) ?? Promise.reject(clash);

export interface PhoneSignUp {
  phone_number: string;
  captcha: string;
  password: string;
  agreement_ids: number[];
  pid: string;
  birth_year_month?: string;
}

export const registerByPhone = async (ctx: Context, input: PhoneSignUp, request: SignInRequest): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  if (await findUserByPhone(ctx.db, input.phone_number)) fail('AC3_0');
  await assertPasswordAllowed(input.password);
  const age = signUpAgeColumns(input.birth_year_month, ctx.now());
  // The phone's unique index decides a parallel sign-up of the same phone: the loser hears AC3_0 —
  // also when the winner spent the code before the loser checked it (the phone is the reason).
  const user = await useCode(ctx, input.phone_number, 'register', input.captcha, async () =>
    createUser(
      ctx,
      newUser(ctx, {
        pid: input.pid,
        phone: input.phone_number,
        ...age,
        ...(await passwordFields(ctx, input.password)),
      }),
      'register_phone',
      new ApiError('AC3_0'),
    ),
  ).catch(async (error: unknown) => {
    if (error instanceof ApiError && error.code === 'AC3_13' && (await findUserByPhone(ctx.db, input.phone_number)))
      fail('AC3_0');
    throw error;
  });
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
  agreement_ids?: number[] | undefined;
  birth_year_month?: string;
}

export const registerByEmail = async (ctx: Context, input: EmailSignUp, request: SignInRequest): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  if (input.password !== input.rePassword) fail('AC3_10');
  await assertPasswordAllowed(input.password);
  const age = signUpAgeColumns(input.birth_year_month, ctx.now());
  // A crowd at the hashes answers E_10 before the ticket is spent, so the same ticket works once asked again.
  assertHashRoom();
  const facts = await spendTicket(ctx, 'email_register', input.captchaTicket);
  if (!facts) return fail('AC3_27');
  if (await findUserByEmail(ctx.db, facts.subject)) fail('AC3_61');
  const user = await createUser(
    ctx,
    newUser(ctx, { pid: input.pid, email: facts.subject, ...age, ...(await passwordFields(ctx, input.password)) }),
    'register_email',
    new ApiError('AC3_61'),
  );
  return signIn(ctx, user, 'register_email', request, agreements);
};
