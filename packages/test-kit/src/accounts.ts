/**
 * Small helpers for the server's HTTP tests: distinct phone numbers, signing up and in over the real
 * API, and the assertions every test repeats (the error shape, the sign-in shape).
 */
import {
  ACCOUNTS_BASE,
  CAPTCHA_TICKET_HEADER,
  type LoginResult,
  type OperatorDuty,
  type RouteSpec,
  routes,
  SERVER_ERRORS,
  type ServerCode,
  TOKENS_BASE,
  type TokenSet,
} from '@edupass/protocol';
import { expect } from 'vitest';
import { createAdmin } from '../../server/src/cli/admin.ts';
import { saveUser } from '../../server/src/services/account/users.ts';
import { issueSessionToken, startSession } from '../../server/src/services/sessions/tokens.ts';
import { findUserById } from '../../server/src/store/account/users.ts';
import type { TestServer } from './harness.ts';
import { type Answer, type CallOptions, client } from './http-client.ts';
import { solveSlideTicket } from './slide-tickets.ts';

export const PID = 'edupass';
export const PASSWORD = 'Kestrel2718';
/** An operator's password: meets the shipped staff password policy (12 characters, 3 kinds). */
export const STAFF_PASSWORD = 'Kestrel-2718';
export const A = ACCOUNTS_BASE;
export const T = TOKENS_BASE;
export const TOKEN_SET_HEADERS = { 'Auth-Version': '2' } as const;

let phoneCounter = Math.floor(Math.random() * 1_000_000);
/** A mainland mobile number no other test of this process has used. */
export const nextPhone = (): string => {
  phoneCounter = (phoneCounter + 1) % 100_000_000;
  return `139${String(phoneCounter).padStart(8, '0')}`;
};

let emailCounter = 0;
export const nextEmail = (): string => `user${Date.now().toString(36)}${++emailCounter}@example.com`;

export type Call = ReturnType<typeof client>;

/**
 * Refusals that may lift by themselves (code sends and slide puzzles asked too often, a locked
 * sign-in, a server too busy for now) may carry the seconds left (`retry_after`); no other does.
 */
const LIFTS_BY_ITSELF: readonly ServerCode[] = ['AC3_23', 'AC3_48', 'E_5', 'E_10'];

/** Asserts the wire error shape and code (and the catalogue's HTTP status for it). */
export const expectError = (answer: Answer, code: ServerCode, clientNumber?: number) => {
  expect(answer.body, `expected ${code}, got ${answer.status} ${JSON.stringify(answer.body)}`).toMatchObject({
    error_code: code,
  });
  expect(answer.status).toBe(SERVER_ERRORS[code].status);
  expect(answer.body).toEqual({
    error_code: code,
    error_message: expect.any(String),
    error_number: clientNumber ?? expect.any(Number),
    error_category: SERVER_ERRORS[code].category,
    log_uuid: expect.any(String),
    ...(LIFTS_BY_ITSELF.includes(code) &&
    typeof answer.body === 'object' &&
    answer.body !== null &&
    'retry_after' in answer.body
      ? { retry_after: expect.any(Number) }
      : {}),
    // An account waiting to be deleted: the ticket that keeps it, and when it goes.
    ...(code === 'E_16' ? { deletion_ticket: expect.any(String), erase_at: expect.any(Number) } : {}),
  });
};

/** The `authorization` cookie a response set ('' when it was cleared), and its attributes. */
export const authCookieOf = (answer: Answer): { value: string; attributes: string } | undefined => {
  for (const line of answer.headers.getSetCookie()) {
    const match = /^authorization=([^;]*)(.*)$/i.exec(line);
    if (match) return { value: decodeURIComponent(match[1] ?? ''), attributes: match[2] ?? '' };
  }
  return undefined;
};

/** Asserts the `{user_info, auth}` shape of compatibility.md; returns it typed. */
export const expectSignedIn = (answer: Answer, phone?: string): LoginResult => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const body = answer.body as LoginResult;
  expect(body.user_info).toEqual({
    id: expect.any(Number),
    nickname: expect.stringMatching(/./),
    avatar_url: expect.any(String),
    fullname: expect.any(String),
    sex: expect.any(Number),
    birthday: expect.any(Number),
    qq: expect.any(String),
    description: expect.any(String),
    grade: expect.any(Number),
    grade_desc: expect.any(String),
    unset_fields: expect.any(Array),
  });
  for (const field of ['id', 'sex', 'birthday', 'grade'] as const) {
    expect(Number.isInteger(body.user_info[field]), field).toBe(true);
  }
  expect(body.auth).toMatchObject({
    email: expect.any(String),
    phone_number: expect.any(String),
    has_password: expect.any(Boolean),
    is_weak_password: expect.any(Boolean),
  });
  if (phone !== undefined) expect(body.auth.phone_number).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
  const accessToken = typeof body.auth.token === 'string' ? body.auth.token : body.auth.token.access.token;
  const cookie = authCookieOf(answer);
  expect(cookie?.value).toBe(accessToken);
  expect(cookie?.attributes).toMatch(/HttpOnly/i);
  return body;
};

export const expectTokenSet = (value: unknown): TokenSet => {
  expect(value).toEqual({
    access: { token: expect.any(String), type: 'Bearer', expires_in: expect.any(Number) },
    refresh: { token: expect.any(String), expires_in: expect.any(Number) },
  });
  return value as TokenSet;
};

/**
 * The code last sent to `to` once it is a new one (not `previous`): some codes (an e-mail reset or
 * sign-in code) are delivered after the send has answered. Polls by hand, not with `expect.poll`, so
 * it works in `beforeAll` too. A new code equal to the previous one (one chance in a million) is
 * returned after the wait.
 */
export const newCodeFor = async (server: TestServer, to: string, previous?: string): Promise<string> => {
  // Codes go out after the answer (services/codes/sends-after-answer.ts): on a loaded machine that has
  // taken over 20 s, so the wait is as long as a screen's.
  const deadline = Date.now() + 60_000;
  let code = await server.lastCode(to);
  while ((code === undefined || code === previous) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    code = await server.lastCode(to);
  }
  if (code === undefined) throw new Error(`no code reached ${to}`);
  return code;
};

/** Sends a code for a purpose and reads it back from the dev outbox. */
export const codeFor = async (
  server: TestServer,
  path: string,
  body: Record<string, unknown>,
  options: CallOptions = {},
): Promise<string> => {
  const target = String(body.phone_number ?? body.email).toLowerCase();
  const previous = await server.lastCode(target);
  const sent = await client(server.url)('POST', `${A}/${path}`, body, options);
  expect(sent.status, JSON.stringify(sent.body)).toBe(204);
  return newCodeFor(server, target, previous);
};

export interface Account {
  userId: number;
  phone: string;
  password: string;
  /** Access token of the token set. */
  token: string;
  refresh: string;
}

/** Registers a phone account with a password and signs in with the token set. */
export const signUp = async (
  server: TestServer,
  phone = nextPhone(),
  password = PASSWORD,
  agreementIds: number[] = [-1],
  /** Other fields of the sign-up (the age question's `birth_year_month`). */
  extra: Record<string, unknown> = {},
): Promise<Account> => {
  const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
  const answer = await client(server.url)(
    'POST',
    `${A}/register/phone/with-agreement`,
    { phone_number: phone, captcha, password, agreement_ids: agreementIds, pid: PID, ...extra },
    { headers: TOKEN_SET_HEADERS },
  );
  const body = expectSignedIn(answer, phone);
  const set = expectTokenSet(body.auth.token);
  return { userId: body.user_info.id, phone, password, token: set.access.token, refresh: set.refresh.token };
};

/** The ids of the agreements in effect, as the sign-up screens tick them. */
export const agreementIdsInEffect = async (server: TestServer): Promise<number[]> =>
  (await client(server.url)<{ id: number }[]>('GET', `${A}/agreements`)).body.map((agreement) => agreement.id);

/**
 * A new account that has signed every agreement in effect, as one made on the sign-up screens has: a
 * sign-in of it finishes (an application's sign-in completes) without the agreements gate.
 */
export const signUpAgreed = async (server: TestServer, phone = nextPhone()): Promise<Account> =>
  signUp(server, phone, PASSWORD, await agreementIdsInEffect(server));

/** The signed-in user signs every agreement in effect (as the agreements gate does). */
export const signAgreementsInEffect = async (server: TestServer, token: string): Promise<void> => {
  const answer = await client(server.url)(
    'POST',
    `${A}/agreements/sign`,
    { agreement_ids: await agreementIdsInEffect(server), pid: PID },
    { token },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(204);
};

/** A new session of an existing account by password (with a captcha ticket, if given); the token set. */
export const signIn = async (
  server: TestServer,
  identity: string,
  password = PASSWORD,
  captchaTicket?: string,
): Promise<TokenSet> => {
  const answer = await client(server.url)(
    'POST',
    `${A}/login`,
    { identity, password, pid: PID },
    {
      headers: {
        ...TOKEN_SET_HEADERS,
        ...(captchaTicket === undefined ? {} : { [CAPTCHA_TICKET_HEADER]: captchaTicket }),
      },
    },
  );
  return expectTokenSet(expectSignedIn(answer).auth.token);
};

/** An e-mail account (no phone) with a password, signed in with the token set. */
export const signUpByEmail = async (server: TestServer, email = nextEmail(), password = PASSWORD) => {
  const call = client(server.url);
  const captcha = await codeFor(server, 'email/captcha/send', { email, pid: PID });
  const checked = await call<{ ticket: string }>('POST', `${A}/email/captcha/check`, { email, captcha });
  expect(checked.status).toBe(200);
  const answer = await call(
    'POST',
    `${A}/email/register`,
    { captchaTicket: checked.body.ticket, password, rePassword: password, pid: PID },
    { headers: TOKEN_SET_HEADERS },
  );
  const body = expectSignedIn(answer);
  const set = expectTokenSet(body.auth.token);
  return { userId: body.user_info.id, email, password, token: set.access.token, refresh: set.refresh.token };
};

/** Binds a new phone (a code sent to it and read back) to the account signed in with `token`; answers the phone. */
export const bindNewPhone = async (server: TestServer, token: string, phone = nextPhone()) => {
  const captcha = await codeFor(server, 'captcha/phone/bind', { phone_number: phone, pid: PID }, { token });
  const bound = await client(server.url)('PATCH', `${A}/phone/bind`, { phone_number: phone, captcha }, { token });
  expect(bound.status, JSON.stringify(bound.body)).toBe(204);
  return phone;
};

/** First sign-in by the silent phone login: an account with a phone and no password. */
export const signUpSilently = async (server: TestServer, phone = nextPhone()) => {
  const captcha = await codeFor(server, 'captcha/login/silence', { phone_number: phone, pid: PID });
  const answer = await client(server.url)(
    'POST',
    `${A}/phone/login/silence`,
    { phone_number: phone, captcha, pid: PID },
    { headers: TOKEN_SET_HEADERS },
  );
  const body = expectSignedIn(answer, phone);
  const set = expectTokenSet(body.auth.token);
  return { userId: body.user_info.id, phone, token: set.access.token, refresh: set.refresh.token };
};

/** Marks a user blocked (sessions left alive, so their tokens meet the blocked error). */
export const blockUser = (server: TestServer, userId: number) =>
  saveUser(server.app.ctx, userId, { blocked_at: Date.now() });

/**
 * A new operator (made as the admin CLI makes one) signed in by password; the phone and access token.
 * The slide puzzle is solved first, so this works under any captcha policy the test configures.
 */
export const signInOperator = async (
  server: TestServer,
  phone = nextPhone(),
  duties?: readonly OperatorDuty[],
  password = STAFF_PASSWORD,
) => {
  await createAdmin(server.app.ctx, phone, password, duties);
  const ticket = await solveSlideTicket(server, 'login', phone);
  return { phone, token: (await signIn(server, phone, password, ticket)).access.token };
};

const auditors = new WeakMap<TestServer, Promise<string>>();

/**
 * A token of an auditor of this server (signed in once, then the same): the audit log is the
 * auditor's alone, and never shows an operator their own entries (protocol's operator-duties.ts).
 */
export const auditorToken = (server: TestServer): Promise<string> => {
  let token = auditors.get(server);
  if (token === undefined) {
    token = signInOperator(server, nextPhone(), ['auditor']).then((auditor) => auditor.token);
    auditors.set(server, token);
  }
  return token;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The account and token routes of the protocol table, by name: what issue 2 serves. Third-party
 * sign-in (oauth paths) and the captcha routes have their own owners and tests.
 */
export const accountTableRoutes: [name: string, spec: RouteSpec][] = Object.entries(
  routes as Record<string, RouteSpec>,
).filter(([, spec]) => /^\/tiger\/v3\/web\//.test(spec.path) && !/\/oauth(\/|$)/.test(spec.path));

/** A new session of a user, minted through the token service (cheap: no password hash). */
export const sessionFor = async (server: TestServer, userId: number): Promise<string> => {
  const ctx = server.app.ctx;
  const user = (await findUserById(ctx.db, userId)) ?? { id: userId, pid: PID };
  const { ref } = await startSession(ctx, user, 'test', { ip: '127.0.0.1', userAgent: 'test' });
  return issueSessionToken(ctx, ref);
};

/**
 * A fresh session for a call of `spec` with any body: `userId`'s, or a new account's for the account
 * deletion, which any body carries out (the tests that throw bodies at every route keep their user).
 */
export const sessionForRoute = async (server: TestServer, spec: RouteSpec, userId: number): Promise<string> =>
  sessionFor(server, spec === routes.deleteAccount ? (await signUp(server)).userId : userId);

export { client };
