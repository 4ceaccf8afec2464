import { ClientCode } from '@edupass/protocol';
import {
  A,
  authCookieOf,
  blockUser,
  client,
  codeFor,
  expectError,
  expectSignedIn,
  expectTokenSet,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  signUpByEmail,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueTicket } from '../security/tickets.ts';
import { useSignInServer } from './sign-in.test-setup.ts';

const { server, call, login } = useSignInServer();

describe('password login (login)', () => {
  it('signs in by phone with {user_info, auth}, a string token and the matching HttpOnly cookie', async () => {
    const account = await signUp(server);
    const answer = await login(account.phone);
    const body = expectSignedIn(answer, account.phone);
    expect(body.user_info.id).toBe(account.userId);
    expect(typeof body.auth.token).toBe('string');
    expect(authCookieOf(answer)?.attributes).toMatch(/Path=\//);
  });

  it('answers the token set with Auth-Version', async () => {
    const account = await signUp(server);
    expectTokenSet(expectSignedIn(await login(account.phone, PASSWORD, TOKEN_SET_HEADERS)).auth.token);
  });

  it('signs in by e-mail and by username', async () => {
    const emailAccount = await signUpByEmail(server);
    expectSignedIn(await login(emailAccount.email.toUpperCase()));
    const account = await signUp(server);
    const username = `user_${account.phone}`;
    expect((await call('PATCH', `${A}/username`, { username }, { token: account.token })).status).toBe(204);
    expectSignedIn(await login(username));
  });

  it('a wrong password or an unknown user is 403 AC3_2', async () => {
    const account = await signUp(server);
    expectError(await login(account.phone, 'Wrong1234'), 'AC3_2', ClientCode.USER_NOT_EXIST_OR_WRONG_PASSWORD);
    expectError(await login(nextPhone()), 'AC3_2');
    expectError(await login('nobody_here'), 'AC3_2');
    expect((await login('nobody@example.com')).status).toBe(403);
  });

  it('an account without a password cannot sign in by password (AC3_2)', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/login/silence', { phone_number: phone, pid: PID });
    expectSignedIn(await call('POST', `${A}/phone/login/silence`, { phone_number: phone, captcha, pid: PID }));
    expectError(await login(phone, 'Anything1'), 'AC3_2');
  });

  it('an unknown pid is AC3_24', async () => {
    expectError(await call('POST', `${A}/login`, { identity: nextPhone(), password: PASSWORD, pid: 'x' }), 'AC3_24');
  });

  it('a blocked account is AC3_44 even with the right password', async () => {
    const account = await signUp(server);
    await blockUser(server, account.userId);
    expectError(await login(account.phone), 'AC3_44', ClientCode.ACCOUNT_BLOCKED);
  });
});

describe('failed logins lock the identity (E_5)', () => {
  let locking: TestServer;
  beforeAll(async () => {
    locking = await startTestServer({ loginSlowdownAfter: 1, loginLockAfter: 3, loginLockSeconds: 600 });
  });
  afterAll(() => locking.close());

  it('after loginLockAfter failures even the right password is E_5, other identities are unaffected', async () => {
    const account = await signUp(locking);
    const other = await signUp(locking);
    const lockCall = client(locking.url);
    const attempt = (identity: string, password: string) =>
      lockCall('POST', `${A}/login`, { identity, password, pid: PID });
    for (let i = 0; i < 3; i++) expectError(await attempt(account.phone, 'Wrong1234'), 'AC3_2');
    const locked = await attempt(account.phone, PASSWORD);
    expectError(locked, 'E_5', ClientCode.LOGIN_LOCKED);
    expect(locked.body).toMatchObject({ error_message: expect.stringMatching(/Try again in 10 minutes/) });
    expectSignedIn(await attempt(other.phone, PASSWORD));
  });

  it("guesses through the account's phone, username and a wrong old password share one count", async () => {
    const account = await signUp(locking);
    const lockCall = client(locking.url);
    const username = `lock_${account.userId}`;
    expect((await lockCall('PATCH', `${A}/username`, { username }, { token: account.token })).status).toBe(204);
    expectError(
      await lockCall('POST', `${A}/login`, { identity: account.phone, password: 'Wrong1234', pid: PID }),
      'AC3_2',
    );
    expectError(await lockCall('POST', `${A}/login`, { identity: username, password: 'Wrong1234', pid: PID }), 'AC3_2');
    const wrongOld = await lockCall(
      'PATCH',
      `${A}/password`,
      { old_password: 'Wrong1234', password: 'Newpass123', confirm_password: 'Newpass123' },
      { token: account.token },
    );
    expectError(wrongOld, 'AC3_9');
    expectError(await lockCall('POST', `${A}/login`, { identity: username, password: PASSWORD, pid: PID }), 'E_5');
  });

  it('a success before the lock clears the failures', async () => {
    const account = await signUp(locking);
    const lockCall = client(locking.url);
    const attempt = (password: string) =>
      lockCall('POST', `${A}/login`, { identity: account.phone, password, pid: PID });
    for (let i = 0; i < 2; i++) expectError(await attempt('Wrong1234'), 'AC3_2');
    expectSignedIn(await attempt(PASSWORD));
    for (let i = 0; i < 2; i++) expectError(await attempt('Wrong1234'), 'AC3_2');
    expectSignedIn(await attempt(PASSWORD));
  });
});

describe('password login with a captcha ticket (login/security)', () => {
  const secure = (identity: string, headers: Record<string, string> = {}) =>
    call('POST', `${A}/login/security`, { identity, password: PASSWORD, pid: PID }, { headers });

  it('without an X-Captcha-Ticket is GCAP_1', async () => {
    const account = await signUp(server);
    expectError(await secure(account.phone), 'GCAP_1', ClientCode.INVALID_CAPTCHA);
  });

  it('with a bad ticket is GCAP_1', async () => {
    const account = await signUp(server);
    expectError(await secure(account.phone, { 'X-Captcha-Ticket': 'not-a-ticket' }), 'GCAP_1');
  });

  it('with a valid ticket signs in once; the ticket cannot be replayed', async () => {
    const account = await signUp(server);
    const ticket = await issueTicket(server.app.ctx, 'captcha', account.phone, 60, { scene: 'login' });
    expectSignedIn(await secure(account.phone, { 'X-Captcha-Ticket': ticket }), account.phone);
    expectError(await secure(account.phone, { 'X-Captcha-Ticket': ticket }), 'GCAP_1');
  });

  it('a ticket issued for another identity or scene is GCAP_1', async () => {
    const account = await signUp(server);
    const elsewhere = await issueTicket(server.app.ctx, 'captcha', nextPhone(), 60, { scene: 'login' });
    expectError(await secure(account.phone, { 'X-Captcha-Ticket': elsewhere }), 'GCAP_1');
    const otherScene = await issueTicket(server.app.ctx, 'captcha', account.phone, 60, { scene: 'register' });
    expectError(await secure(account.phone, { 'X-Captcha-Ticket': otherScene }), 'GCAP_1');
  });

  it('with a valid ticket and a wrong password is AC3_2', async () => {
    const account = await signUp(server);
    const ticket = await issueTicket(server.app.ctx, 'captcha', account.phone, 60, { scene: 'login' });
    const answer = await call(
      'POST',
      `${A}/login/security`,
      { identity: account.phone, password: 'Wrong1234', pid: PID },
      { headers: { 'X-Captcha-Ticket': ticket } },
    );
    expectError(answer, 'AC3_2');
  });
});
