import { ClientCode, type LoginResult } from '@edupass/protocol';
import {
  A,
  authCookieOf,
  blockUser,
  client,
  codeFor,
  expectError,
  expectSignedIn,
  expectTokenSet,
  nextEmail,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  signUpByEmail,
  signUpSilently,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { startTestServer, useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { storedTarget } from '../../store/account/codes.ts';

const SEND = `${A}/captcha/register/phone/with-agreement`;
const REGISTER = `${A}/register/phone/with-agreement`;

const { server, call } = useTestServer();

const register = (phone: string, captcha: string, extra: Record<string, unknown> = {}, headers = {}) =>
  call(
    'POST',
    REGISTER,
    { phone_number: phone, captcha, password: PASSWORD, agreement_ids: [-1], pid: PID, ...extra },
    {
      headers,
    },
  );

describe('send a sign-up code (captcha/register/phone/with-agreement)', () => {
  it('answers 204 and puts a 6-digit code in the outbox', async () => {
    const phone = nextPhone();
    const sent = await call('POST', SEND, { phone_number: phone, pid: PID });
    expect(sent.status).toBe(204);
    expect(sent.body).toBeUndefined();
    expect(await server.lastCode(phone)).toMatch(/^\d{6}$/);
  });

  it('refuses a registered phone with AC3_0', async () => {
    const { phone } = await signUp(server);
    expectError(await call('POST', SEND, { phone_number: phone, pid: PID }), 'AC3_0', ClientCode.PHONE_REGISTERED);
  });

  it('refuses an unknown pid with AC3_24', async () => {
    expectError(await call('POST', SEND, { phone_number: nextPhone(), pid: 'nope' }), 'AC3_24', ClientCode.ILLEGAL_PID);
  });

  it('refuses a bad phone with E_1 carrying client code 0 and the spec message', async () => {
    const answer = await call('POST', SEND, { phone_number: '12345', pid: PID });
    expectError(answer, 'E_1', ClientCode.INVALID_PHONE);
    expect(answer.body).toMatchObject({ error_message: 'Invalid phone_number "12345", it should match the RegExp.' });
  });

  it('refuses a bad X-Captcha-Ticket with GCAP_1', async () => {
    const answer = await call(
      'POST',
      SEND,
      { phone_number: nextPhone(), pid: PID },
      { headers: { 'X-Captcha-Ticket': 'forged' } },
    );
    expectError(answer, 'GCAP_1', ClientCode.INVALID_CAPTCHA);
  });
});

describe('send-code rate limits', () => {
  const { call: limitedCall } = useTestServer({ codeResendSeconds: 60, codeDailyLimit: 2, codeIpHourlyLimit: 6 });

  it('a second code within the resend interval is AC3_23; another purpose is fine', async () => {
    const phone = nextPhone();
    expect((await limitedCall('POST', SEND, { phone_number: phone, pid: PID })).status).toBe(204);
    expectError(
      await limitedCall('POST', SEND, { phone_number: phone, pid: PID }),
      'AC3_23',
      ClientCode.SEND_CAPTCHA_TOO_FREQUENTLY,
    );
    expect((await limitedCall('POST', `${A}/captcha/common`, { phone_number: phone, pid: PID })).status).toBe(204);
  });

  it('past the daily limit per phone is AC3_48', async () => {
    const phone = nextPhone();
    expect((await limitedCall('POST', SEND, { phone_number: phone, pid: PID })).status).toBe(204);
    expect((await limitedCall('POST', `${A}/captcha/common`, { phone_number: phone, pid: PID })).status).toBe(204);
    expectError(
      await limitedCall('POST', `${A}/captcha/login/silence`, { phone_number: phone, pid: PID }),
      'AC3_48',
      ClientCode.CAPTCHA_SEND_LIMIT,
    );
  });

  it('past the hourly limit per IP is AC3_23 whatever the phone', async () => {
    let last = await limitedCall('POST', SEND, { phone_number: nextPhone(), pid: PID });
    for (let i = 0; i < 6 && last.status === 204; i++) {
      last = await limitedCall('POST', SEND, { phone_number: nextPhone(), pid: PID });
    }
    expectError(last, 'AC3_23', ClientCode.SEND_CAPTCHA_TOO_FREQUENTLY);
  });
});

describe('register by phone (register/phone/with-agreement)', () => {
  it('answers {user_info, auth} with a plain token string and the same HttpOnly authorization cookie', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
    const answer = await register(phone, captcha);
    const body = expectSignedIn(answer, phone);
    expect(typeof body.auth.token).toBe('string');
    expect(authCookieOf(answer)?.value).toBe(body.auth.token);
    expect(body.auth).toMatchObject({ email: '', has_password: true, is_weak_password: false });
    expect(body.user_info).toMatchObject({
      nickname: expect.stringMatching(/^用户\d{8}$/),
      sex: 0,
      birthday: 0,
      grade: 0,
      grade_desc: '',
    });
    // The plain token is a working credential.
    const profile = await call('GET', `${A}/profile`, undefined, { token: body.auth.token as string });
    expect(profile.status).toBe(200);
  });

  it('answers the token set when the request carries Auth-Version', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
    const answer = await register(phone, captcha, {}, TOKEN_SET_HEADERS);
    const set = expectTokenSet(expectSignedIn(answer, phone).auth.token);
    expect(authCookieOf(answer)?.value).toBe(set.access.token);
    // The cookie lives as long as the access token it holds.
    expect(authCookieOf(answer)?.attributes).toContain(`Max-Age=${set.access.expires_in}`);
  });

  it('reports a weak password', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
    const body = expectSignedIn(await register(phone, captcha, { password: 'qz1928' }));
    expect(body.auth.is_weak_password).toBe(true);
  });

  it('signs the chosen agreements', async () => {
    const listed = await call<{ id: number }[]>('GET', `${A}/agreements`);
    const ids = listed.body.map((a) => a.id);
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
    const body = expectSignedIn(await register(phone, captcha, { agreement_ids: ids }));
    const toSign = await call('GET', `${A}/agreements/need-sign`, undefined, { token: body.auth.token as string });
    expect(toSign.body).toEqual([]);
  });

  it('a wrong code is AC3_13', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
    const wrong = captcha === '000000' ? '111111' : '000000';
    expectError(await register(phone, wrong), 'AC3_13', ClientCode.VERIFY_CAPTCHA_FAIL);
    // The right code still works after one wrong guess.
    expectSignedIn(await register(phone, captcha));
  });

  it('a code is single use: the same code checked twice is AC3_13 the second time', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/common', { phone_number: phone, pid: PID });
    expect((await call('POST', `${A}/captcha/common/check`, { phone_number: phone, captcha })).status).toBe(200);
    expectError(await call('POST', `${A}/captcha/common/check`, { phone_number: phone, captcha }), 'AC3_13');
  });

  it('too many wrong guesses spend the code: even the right one is then AC3_13', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
    const wrong = captcha === '000000' ? '111111' : '000000';
    for (let i = 0; i < server.config.codeMaxAttempts; i++) expectError(await register(phone, wrong), 'AC3_13');
    expectError(await register(phone, captcha), 'AC3_13');
  });

  it('a code for another purpose is AC3_13', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/common', { phone_number: phone, pid: PID });
    expectError(await register(phone, captcha), 'AC3_13');
  });

  it('a registered phone is AC3_0', async () => {
    const { phone } = await signUp(server);
    expectError(await register(phone, '123456'), 'AC3_0', ClientCode.PHONE_REGISTERED);
  });

  it('an unknown pid is AC3_24', async () => {
    expectError(await register(nextPhone(), '123456', { pid: 'unknown' }), 'AC3_24');
  });

  it('empty agreement_ids is E_1 with client code 55 and the spec message', async () => {
    const answer = await register(nextPhone(), '123456', { agreement_ids: [] });
    expectError(answer, 'E_1', ClientCode.EMPTY_AGREEMENT_IDS);
    expect(answer.body).toMatchObject({ error_message: 'agreement_ids should not be an empty array.' });
  });

  it('an unknown agreement id is E_1', async () => {
    expectError(await register(nextPhone(), '123456', { agreement_ids: [987654] }), 'E_1');
  });

  it('a bad password, captcha or phone is E_1 with that rule’s client code', async () => {
    expectError(await register(nextPhone(), '123456', { password: 'short' }), 'E_1', ClientCode.INVALID_PASSWORD);
    expectError(await register(nextPhone(), '12345'), 'E_1', ClientCode.INVALID_CAPTCHA);
    expectError(await register('23800001111', '123456'), 'E_1', ClientCode.INVALID_PHONE);
  });

  it('an expired code is AC3_13', async () => {
    let offset = 0;
    const shortLived = await startTestServer({ codeTtlSeconds: 1 }, { now: () => Date.now() + offset });
    try {
      const phone = nextPhone();
      const captcha = await codeFor(shortLived, 'captcha/register/phone/with-agreement', {
        phone_number: phone,
        pid: PID,
      });
      offset += 1_100; // past the code's lifetime on the server's clock
      const answer = await client(shortLived.url)('POST', REGISTER, {
        phone_number: phone,
        captcha,
        password: PASSWORD,
        agreement_ids: [-1],
        pid: PID,
      });
      expectError(answer, 'AC3_13');
    } finally {
      await shortLived.close();
    }
  });
});

describe('e-mail sign-up (email/captcha/send → email/captcha/check → email/register)', () => {
  const ticketFor = async (email: string) => {
    const captcha = await codeFor(server, 'email/captcha/send', { email, pid: PID });
    const checked = await call<{ ticket: string }>('POST', `${A}/email/captcha/check`, { email, captcha });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ ticket: expect.any(String) });
    return checked.body.ticket;
  };
  const registerEmail = (ticket: string, extra: Record<string, unknown> = {}) =>
    call('POST', `${A}/email/register`, {
      captchaTicket: ticket,
      password: PASSWORD,
      rePassword: PASSWORD,
      pid: PID,
      ...extra,
    });

  it('signs up and answers {user_info, auth} with the e-mail and no phone', async () => {
    const email = nextEmail();
    const answer = await registerEmail(await ticketFor(email));
    const body: LoginResult = expectSignedIn(answer);
    expect(body.auth).toMatchObject({ email, phone_number: '', has_password: true });
    expect(typeof body.auth.token).toBe('string');
  });

  it('signs the chosen agreements in the same request: the session never has anything left to sign', async () => {
    const listed = await call<{ id: number }[]>('GET', `${A}/agreements`);
    const ids = listed.body.map((a) => a.id);
    expect(ids.length).toBeGreaterThan(0);
    const email = nextEmail();
    const unsigned = expectSignedIn(await registerEmail(await ticketFor(email)));
    const before = await call('GET', `${A}/agreements/need-sign`, undefined, { token: unsigned.auth.token as string });
    expect(before.body).toHaveLength(ids.length);
    const signed = expectSignedIn(await registerEmail(await ticketFor(nextEmail()), { agreement_ids: ids }));
    const after = await call('GET', `${A}/agreements/need-sign`, undefined, { token: signed.auth.token as string });
    expect(after.body).toEqual([]);
    expectError(await registerEmail(await ticketFor(nextEmail()), { agreement_ids: [999_999] }), 'E_1');
  });

  it('a wrong e-mail code is AC3_13; a bad address is E_1 with client code 51', async () => {
    const email = nextEmail();
    await codeFor(server, 'email/captcha/send', { email, pid: PID });
    const lastCode = await server.lastCode(email);
    const wrong = lastCode === '000000' ? '111111' : '000000';
    expectError(await call('POST', `${A}/email/captcha/check`, { email, captcha: wrong }), 'AC3_13');
    expectError(
      await call('POST', `${A}/email/captcha/send`, { email: 'not-an-email' }),
      'E_1',
      ClientCode.INVALID_EMAIL,
    );
  });

  it('a registered e-mail is AC3_61 at the code send and at registration', async () => {
    const email = nextEmail();
    const first = await ticketFor(email);
    const second = await ticketFor(email);
    expectSignedIn(await registerEmail(first));
    expectError(await registerEmail(second), 'AC3_61', ClientCode.EMAIL_REGISTERED);
    expectError(await call('POST', `${A}/email/captcha/send`, { email, pid: PID }), 'AC3_61');
  });

  it('a wrong or spent ticket is AC3_27', async () => {
    expectError(await registerEmail('no-such-ticket'), 'AC3_27', ClientCode.WRONG_TICKET);
    const ticket = await ticketFor(nextEmail());
    expectSignedIn(await registerEmail(ticket));
    expectError(await registerEmail(ticket), 'AC3_27');
  });

  it('passwords that differ are AC3_10', async () => {
    const ticket = await ticketFor(nextEmail());
    expectError(await registerEmail(ticket, { rePassword: 'Other1234' }), 'AC3_10', ClientCode.PASSWORDS_DIFFER);
  });

  it('an unknown pid is AC3_24', async () => {
    expectError(await registerEmail('whatever', { pid: 'unknown' }), 'AC3_24');
  });
});

describe('default nickname', () => {
  const DEFAULT = /^用户\d{8}$/;
  it('parallel phone sign-ups each get their own 用户 + 8 digits nickname', async () => {
    const accounts = await Promise.all(Array.from({ length: 12 }, () => signUp(server)));
    const nicknames = await Promise.all(
      accounts.map(
        async (account) =>
          ((await call('GET', `${A}/profile`, undefined, { token: account.token })).body as { nickname: string })
            .nickname,
      ),
    );
    expect(nicknames.every((n) => DEFAULT.test(n))).toBe(true);
    expect(new Set(nicknames).size).toBe(12);
  });

  it('e-mail sign-up and the silent phone sign-in get one too; it stays editable', async () => {
    const nicknameOf = async (token: string) =>
      ((await call('GET', `${A}/profile`, undefined, { token })).body as { nickname: string }).nickname;
    expect(await nicknameOf((await signUpByEmail(server)).token)).toMatch(DEFAULT);
    expect(await nicknameOf((await signUpSilently(server)).token)).toMatch(DEFAULT);
    const account = await signUp(server);
    const renamed = await call('PATCH', `${A}/info`, { nickname: `改名${account.userId}` }, { token: account.token });
    expect(renamed.status).toBe(204);
    const profile = await call('GET', `${A}/profile`, undefined, { token: account.token });
    expect(profile.body).toMatchObject({ nickname: `改名${account.userId}` });
  });
});

describe('a code that cannot be delivered', () => {
  it('is E_6 after one retry, and is withdrawn; asking again need not wait out the resend interval', async () => {
    let attempts = 0;
    const failing = await startTestServer(
      { codeResendSeconds: 60 },
      {
        delivery: {
          send: async () => {
            attempts++;
            throw new Error('SMS gateway down');
          },
        },
      },
    );
    try {
      const phone = nextPhone();
      const answer = await client(failing.url)('POST', SEND, { phone_number: phone, pid: PID });
      expectError(answer, 'E_6', ClientCode.DELIVERY_FAILED);
      expect(attempts).toBe(2);
      const stored = await failing.app.ctx.db
        .selectFrom('codes')
        .select('target')
        .where('target', '=', storedTarget(failing.app.ctx.db, phone))
        .execute();
      expect(stored).toEqual([]);
      const again = await client(failing.url)('POST', SEND, { phone_number: phone, pid: PID });
      expectError(again, 'E_6', ClientCode.DELIVERY_FAILED);
      expect(attempts).toBe(4);
    } finally {
      await failing.close();
    }
  });
});

describe('a blocked account', () => {
  it('cannot ask for a sign-in code or sign in (AC3_44)', async () => {
    const account = await signUp(server);
    await blockUser(server, account.userId);
    expectError(
      await call('POST', `${A}/captcha/login/post-process`, { phone_number: account.phone, pid: PID }),
      'AC3_44',
      ClientCode.ACCOUNT_BLOCKED,
    );
    expectError(await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID }), 'AC3_44');
  });
});
