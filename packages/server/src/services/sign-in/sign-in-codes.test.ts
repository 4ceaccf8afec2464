import { ClientCode, type LoginResult } from '@edupass/protocol';
import {
  A,
  accountTableRoutes,
  authCookieOf,
  blockUser,
  codeFor,
  expectError,
  expectSignedIn,
  expectTokenSet,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  signUpByEmail,
  T,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { describe, expect, it } from 'vitest';
import { issueTicket } from '../security/tickets.ts';
import { useSignInServer } from './sign-in.test-setup.ts';

const { server, call, login } = useSignInServer();

describe('phone-code login (captcha/login/post-process → phone/login/post-process)', () => {
  it('sends a code (204) and signs in with it', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(server, 'captcha/login/post-process', { phone_number: account.phone, pid: PID });
    const answer = await call('POST', `${A}/phone/login/post-process`, {
      phone_number: account.phone,
      captcha,
      pid: PID,
    });
    expect(expectSignedIn(answer, account.phone).user_info.id).toBe(account.userId);
  });

  it('sending to an unregistered phone is AC3_1; signing in with it is a wrong code (no oracle)', async () => {
    const phone = nextPhone();
    expectError(
      await call('POST', `${A}/captcha/login/post-process`, { phone_number: phone, pid: PID }),
      'AC3_1',
      ClientCode.PHONE_UNREGISTERED,
    );
    expectError(
      await call('POST', `${A}/phone/login/post-process`, { phone_number: phone, captcha: '123456', pid: PID }),
      'AC3_13',
    );
  });

  it('a wrong code is AC3_13 and a used code cannot sign in again', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(server, 'captcha/login/post-process', { phone_number: account.phone, pid: PID });
    const wrong = captcha === '000000' ? '111111' : '000000';
    const attempt = (code: string) =>
      call('POST', `${A}/phone/login/post-process`, { phone_number: account.phone, captcha: code, pid: PID });
    expectError(await attempt(wrong), 'AC3_13');
    expectSignedIn(await attempt(captcha));
    expectError(await attempt(captcha), 'AC3_13');
  });

  it('a blocked account is AC3_44 at the code send and at sign-in', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(server, 'captcha/login/post-process', { phone_number: account.phone, pid: PID });
    await blockUser(server, account.userId);
    expectError(
      await call('POST', `${A}/captcha/login/post-process`, { phone_number: account.phone, pid: PID }),
      'AC3_44',
    );
    expectError(
      await call('POST', `${A}/phone/login/post-process`, { phone_number: account.phone, captcha, pid: PID }),
      'AC3_44',
    );
  });

  it('an unknown pid is AC3_24 at both steps', async () => {
    const account = await signUp(server);
    expectError(
      await call('POST', `${A}/captcha/login/post-process`, { phone_number: account.phone, pid: 'x' }),
      'AC3_24',
    );
    expectError(
      await call('POST', `${A}/phone/login/post-process`, { phone_number: account.phone, captcha: '123456', pid: 'x' }),
      'AC3_24',
    );
  });
});

describe('silent phone login (captcha/login/silence → phone/login/silence)', () => {
  it('creates the account on first use (is_first_login true), then signs in (false)', async () => {
    const phone = nextPhone();
    const silent = async () => {
      const captcha = await codeFor(server, 'captcha/login/silence', { phone_number: phone, pid: PID });
      return call('POST', `${A}/phone/login/silence`, { phone_number: phone, captcha, pid: PID });
    };
    const first = await silent();
    const firstBody = expectSignedIn(first, phone) as LoginResult;
    expect(firstBody.is_first_login).toBe(true);
    expect(firstBody.auth.has_password).toBe(false);
    const second = expectSignedIn(await silent(), phone);
    expect(second.is_first_login).toBe(false);
    expect(second.user_info.id).toBe(firstBody.user_info.id);
  });

  it('answers the token set with Auth-Version', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/login/silence', { phone_number: phone, pid: PID });
    const answer = await call(
      'POST',
      `${A}/phone/login/silence`,
      { phone_number: phone, captcha, pid: PID },
      { headers: TOKEN_SET_HEADERS },
    );
    expectTokenSet(expectSignedIn(answer).auth.token);
  });

  it('a wrong code is AC3_13 and creates no account', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/login/silence', { phone_number: phone, pid: PID });
    const wrong = captcha === '000000' ? '111111' : '000000';
    expectError(
      await call('POST', `${A}/phone/login/silence`, { phone_number: phone, captcha: wrong, pid: PID }),
      'AC3_13',
    );
    expectError(await call('POST', `${A}/captcha/login/post-process`, { phone_number: phone, pid: PID }), 'AC3_1');
  });

  it('a blocked account is AC3_44', async () => {
    const account = await signUp(server);
    await blockUser(server, account.userId);
    expectError(await call('POST', `${A}/captcha/login/silence`, { phone_number: account.phone, pid: PID }), 'AC3_44');
  });

  it('an unknown pid is AC3_24', async () => {
    expectError(await call('POST', `${A}/captcha/login/silence`, { phone_number: nextPhone(), pid: 'x' }), 'AC3_24');
    expectError(
      await call('POST', `${A}/phone/login/silence`, { phone_number: nextPhone(), captcha: '123456', pid: 'x' }),
      'AC3_24',
    );
  });
});

describe('general-purpose and voice codes', () => {
  it('captcha/common sends (204); captcha/common/check answers {ticket} once', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/common', { phone_number: phone, pid: PID });
    const checked = await call('POST', `${A}/captcha/common/check`, { phone_number: phone, captcha });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ ticket: expect.any(String) });
    expectError(await call('POST', `${A}/captcha/common/check`, { phone_number: phone, captcha }), 'AC3_13');
  });

  it('captcha/common with an unknown pid is AC3_24', async () => {
    expectError(await call('POST', `${A}/captcha/common`, { phone_number: nextPhone(), pid: 'x' }), 'AC3_24');
  });

  it('a voice code for sign-up is sent by voice and signs up', async () => {
    const phone = nextPhone();
    const sent = await call('POST', `${A}/voice/captcha/send`, { phone_number: phone, type: 'register', pid: PID });
    expect(sent.status).toBe(204);
    const outbox = await call<{ channel: string; code: string }[]>('GET', `/dev/outbox?to=${phone}`);
    expect(outbox.body[0]?.channel).toBe('voice');
    const captcha = outbox.body[0]?.code ?? '';
    expectSignedIn(
      await call('POST', `${A}/register/phone/with-agreement`, {
        phone_number: phone,
        captcha,
        password: PASSWORD,
        agreement_ids: [-1],
        pid: PID,
      }),
    );
  });

  it('a voice code of an unknown type is E_1; for a registered phone’s sign-up AC3_0; unknown pid AC3_24', async () => {
    expectError(await call('POST', `${A}/voice/captcha/send`, { phone_number: nextPhone(), type: 'NOPE' }), 'E_1');
    const account = await signUp(server);
    expectError(
      await call('POST', `${A}/voice/captcha/send`, { phone_number: account.phone, type: 'REGISTER' }),
      'AC3_0',
    );
    expectError(
      await call('POST', `${A}/voice/captcha/send`, { phone_number: nextPhone(), type: 'REGISTER', pid: 'x' }),
      'AC3_24',
    );
  });
});

describe('X-Captcha-Ticket on every call that takes one', () => {
  const ticketed = accountTableRoutes.filter(([, spec]) => spec.headers?.includes('X-Captcha-Ticket'));

  it('a bad ticket is GCAP_1; a valid one for the scene is spent and the call goes through', async () => {
    expect(ticketed.length).toBeGreaterThan(8);
    const account = await signUpByEmail(server);
    for (const [name, spec] of ticketed) {
      const phone = nextPhone();
      const body =
        spec.body !== undefined && 'email' in spec.body
          ? { email: `ticket.${phone}@example.com`, pid: PID }
          : name === 'sendRebindCode'
            ? { phone_number: phone, old_phone_number: nextPhone(), pid: PID }
            : name === 'sendVoiceCode'
              ? { phone_number: phone, type: 'COMMON', pid: PID }
              : name.startsWith('loginByPassword')
                ? { identity: phone, password: PASSWORD, pid: PID }
                : { phone_number: phone, pid: PID };
      const answer = await call(spec.method, spec.path, body, {
        token: account.token,
        headers: { 'X-Captcha-Ticket': `forged-${name}` },
      });
      expect(answer.body, name).toMatchObject({ error_code: 'GCAP_1' });
      expectError(answer, 'GCAP_1', ClientCode.INVALID_CAPTCHA);
    }
  });

  it('a valid ticket lets a code send through, once', async () => {
    const phone = nextPhone();
    const ticket = await issueTicket(server.app.ctx, 'captcha', phone, 60, { scene: 'common' });
    const send = () =>
      call(
        'POST',
        `${A}/captcha/common`,
        { phone_number: phone, pid: PID },
        { headers: { 'X-Captcha-Ticket': ticket } },
      );
    expect((await send()).status).toBe(204);
    expectError(await send(), 'GCAP_1');
  });
});

describe('a blocked account resetting its password', () => {
  it('is AC3_44 at the code send and at the check', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(server, 'captcha/password/reset', { phone_number: account.phone, pid: PID });
    await blockUser(server, account.userId);
    expectError(await call('POST', `${A}/captcha/password/reset`, { phone_number: account.phone, pid: PID }), 'AC3_44');
    expectError(await call('POST', `${A}/captcha/password/check`, { phone_number: account.phone, captcha }), 'AC3_44');
  });
});

describe('logout', () => {
  it('answers 204, clears the cookie, and ends the session: token, cookie and refresh token are refused', async () => {
    const account = await signUp(server);
    const loggedOut = await call('POST', `${A}/logout`, { refresh_token: account.refresh }, { token: account.token });
    expect(loggedOut.status).toBe(204);
    const cleared = authCookieOf(loggedOut);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    expectError(await call('GET', `${A}/profile`, undefined, { token: account.token }), 'E_0', ClientCode.NO_TOKEN);
    expectError(
      await call('GET', `${A}/profile`, undefined, { headers: { cookie: `authorization=${account.token}` } }),
      'E_0',
    );
    expectError(await call('PUT', `${T}/refresh`, { refresh_token: account.refresh }), '10000001');
  });

  it('works with the cookie and an empty JSON body, and leaves other sessions alone', async () => {
    const account = await signUp(server);
    const other = expectSignedIn(await login(account.phone)).auth.token as string;
    const loggedOut = await call('POST', `${A}/logout`, undefined, {
      headers: { cookie: `authorization=${account.token}` },
    });
    expect(loggedOut.status).toBe(204);
    expectError(await call('GET', `${A}/profile`, undefined, { token: account.token }), 'E_0');
    expect((await call('GET', `${A}/profile`, undefined, { token: other })).status).toBe(200);
  });

  it('without a token is 403 E_0', async () => {
    expectError(await call('POST', `${A}/logout`, {}), 'E_0', ClientCode.NO_TOKEN);
  });
});
