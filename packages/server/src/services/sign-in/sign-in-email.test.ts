/**
 * Sign-in by e-mail code (email/captcha/login → email/login): the usual `{user_info, auth}` answer
 * and cookie, agreements signed with it as by SMS, the second factor asked as by SMS, a blocked
 * account refused; a code for another purpose, a spent or a wrong one is AC3_13.
 */
import type { Agreement, LoginResult, RecoveryCodes, SecondFactorChallenge, TotpSetup } from '@edupass/protocol';
import {
  A,
  authCookieOf,
  codeFor,
  expectError,
  expectSignedIn,
  expectTokenSet,
  PID,
  signUpByEmail,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { describe, expect, it } from 'vitest';

let offset = 0;
const now = () => 1_900_000_000_000 + offset;
const { server, call } = useTestServer({}, { now });

const loginCode = (email: string) => codeFor(server, 'email/captcha/login', { email, pid: PID });
const login = (email: string, captcha: string, extra: Record<string, unknown> = {}) =>
  call<LoginResult & SecondFactorChallenge>(
    'POST',
    `${A}/email/login`,
    { email, captcha, pid: PID, ...extra },
    { headers: TOKEN_SET_HEADERS },
  );

describe('sign-in by e-mail code', () => {
  it('signs in with the token set and the cookie; the code is single use', async () => {
    const account = await signUpByEmail(server);
    const captcha = await loginCode(account.email);
    const answer = await login(account.email, captcha);
    const body = expectSignedIn(answer);
    expect(body.user_info.id).toBe(account.userId);
    expect(body.auth.email).toBe(account.email);
    expectTokenSet(body.auth.token);
    expect(authCookieOf(answer)?.value).toEqual(expect.any(String));
    expectError(await login(account.email, captcha), 'AC3_13');
  });

  it('a wrong code, or a sign-up code, is AC3_13', async () => {
    const account = await signUpByEmail(server);
    await loginCode(account.email);
    expectError(await login(account.email, '000000'), 'AC3_13');
    const other = await signUpByEmail(server);
    const checkCode = await codeFor(server, 'email/captcha/password/reset', { email: other.email, pid: PID });
    expectError(await login(other.email, checkCode), 'AC3_13');
  });

  it('signs the agreements chosen with it; an unknown agreement id is E_1', async () => {
    const account = await signUpByEmail(server);
    const agreements = (await call<Agreement[]>('GET', `${A}/agreements`)).body;
    const ids = agreements.map((a) => a.id);
    expectError(await login(account.email, await loginCode(account.email), { agreement_ids: [999_999] }), 'E_1');
    offset += 61_000; // past the resend wait
    const body = expectSignedIn(await login(account.email, await loginCode(account.email), { agreement_ids: ids }));
    const token = expectTokenSet(body.auth.token).access.token;
    const toSign = await call<Agreement[]>('GET', `${A}/agreements/need-sign`, undefined, { token });
    expect(toSign.body).toEqual([]);
  });

  it('an account with an authenticator app is asked for the second step (E_11), which finishes it', async () => {
    const account = await signUpByEmail(server);
    const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token: account.token });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const confirm = { code: totpCode(setup.body.secret, stepAt(now())) };
    const confirmed = await call<RecoveryCodes>('POST', `${A}/second-factor/totp/confirm`, confirm, {
      token: account.token,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    offset += 61_000;
    const challenged = await login(account.email, await loginCode(account.email));
    expect(challenged.status, JSON.stringify(challenged.body)).toBe(401);
    expect(challenged.body).toMatchObject({ error_code: 'E_11', mfa_challenge: expect.any(String) });
    const finished = await call(
      'POST',
      `${A}/second-factor/verify`,
      { mfa_challenge: challenged.body.mfa_challenge, code: totpCode(setup.body.secret, stepAt(now())) },
      { headers: TOKEN_SET_HEADERS },
    );
    expect(expectSignedIn(finished).user_info.id).toBe(account.userId);
  });

  it('a blocked account gets its code but is refused (AC3_44)', async () => {
    const account = await signUpByEmail(server);
    const captcha = await loginCode(account.email);
    await server.app.ctx.db.updateTable('users').set({ blocked_at: now() }).where('id', '=', account.userId).execute();
    expectError(await login(account.email, captcha), 'AC3_44');
  });
});
