/**
 * Password reset by e-mail (email/captcha/password/reset → email/captcha/password/check → PATCH
 * password/reset): an account with an e-mail and no phone can recover; the code is single use and its
 * guesses are limited; the reset ends every session and lifts a login lock.
 */
import { ClientCode } from '@edupass/protocol';
import {
  A,
  codeFor,
  expectError,
  expectSignedIn,
  newCodeFor,
  PASSWORD,
  PID,
  signUpByEmail,
  T,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const NEW_PASSWORD = 'Changed456';
const MAX_ATTEMPTS = 3;
const { server, call } = useTestServer({ codeMaxAttempts: MAX_ATTEMPTS, loginLockAfter: 4, loginSlowdownAfter: 4 });

const resetCode = (email: string) => codeFor(server, 'email/captcha/password/reset', { email, pid: PID });
const check = (email: string, captcha: string) =>
  call<{ ticket: string }>('POST', `${A}/email/captcha/password/check`, { email, captcha });
const reset = (ticket: string, password = NEW_PASSWORD) =>
  call('PATCH', `${A}/password/reset`, { ticket, password, confirm_password: password });
const login = (identity: string, password: string) => call('POST', `${A}/login`, { identity, password, pid: PID });

describe('reset by e-mail', () => {
  it('an e-mail-only account resets its password (204), every session ends, the new password signs in', async () => {
    const account = await signUpByEmail(server);
    const checked = await check(account.email, await resetCode(account.email));
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toEqual({ ticket: expect.any(String) });
    expect((await reset(checked.body.ticket)).status).toBe(204);
    expectError(await call('GET', `${A}/profile`, undefined, { token: account.token }), 'E_0');
    expectError(await call('PUT', `${T}/refresh`, { refresh_token: account.refresh }), '10000001');
    expectError(await login(account.email, PASSWORD), 'AC3_2');
    expect(expectSignedIn(await login(account.email, NEW_PASSWORD)).user_info.id).toBe(account.userId);
    // The ticket is single use; so is the code.
    expectError(await reset(checked.body.ticket, 'Again12345'), 'AC3_27', ClientCode.WRONG_TICKET);
  });

  it('the address in another case finds the account', async () => {
    const account = await signUpByEmail(server);
    const upper = account.email.toUpperCase();
    const signUpCode = await server.lastCode(account.email);
    expect((await call('POST', `${A}/email/captcha/password/reset`, { email: upper, pid: PID })).status).toBe(204);
    const checked = await check(upper, await newCodeFor(server, account.email, signUpCode));
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
  });

  it('a code is spent by its check: a second check is AC3_13', async () => {
    const account = await signUpByEmail(server);
    const captcha = await resetCode(account.email);
    expect((await check(account.email, captcha)).status).toBe(200);
    expectError(await check(account.email, captcha), 'AC3_13', ClientCode.VERIFY_CAPTCHA_FAIL);
  });

  it(`after ${MAX_ATTEMPTS} wrong guesses the right code no longer works (AC3_13)`, async () => {
    const account = await signUpByEmail(server);
    const captcha = await resetCode(account.email);
    const wrong = captcha === '000000' ? '111111' : '000000';
    for (let i = 0; i < MAX_ATTEMPTS; i++) expectError(await check(account.email, wrong), 'AC3_13');
    expectError(await check(account.email, captcha), 'AC3_13');
  });

  it('a code for another purpose (e-mail sign-in) does not reset', async () => {
    const account = await signUpByEmail(server);
    const loginCode = await codeFor(server, 'email/captcha/login', { email: account.email, pid: PID });
    expectError(await check(account.email, loginCode), 'AC3_13');
  });

  it('a blocked account gets no ticket (AC3_44)', async () => {
    const account = await signUpByEmail(server);
    const captcha = await resetCode(account.email);
    await server.app.ctx.db
      .updateTable('users')
      .set({ blocked_at: Date.now() })
      .where('id', '=', account.userId)
      .execute();
    expectError(await check(account.email, captcha), 'AC3_44');
  });

  it('a reset by e-mail lifts a login lock', async () => {
    const account = await signUpByEmail(server);
    for (let i = 0; i < 5; i++) await login(account.email, 'Wrong1234x');
    expectError(await login(account.email, PASSWORD), 'E_5');
    const checked = await check(account.email, await resetCode(account.email));
    expect((await reset(checked.body.ticket)).status).toBe(204);
    expect(expectSignedIn(await login(account.email, NEW_PASSWORD)).user_info.id).toBe(account.userId);
  });

  it('bad input is E_1 with the e-mail rule; an unknown pid is AC3_24', async () => {
    expectError(
      await call('POST', `${A}/email/captcha/password/reset`, { email: 'not-an-address', pid: PID }),
      'E_1',
      ClientCode.INVALID_EMAIL,
    );
    expectError(
      await call('POST', `${A}/email/captcha/password/reset`, { email: 'a@example.com', pid: 'nope' }),
      'AC3_24',
    );
  });
});
