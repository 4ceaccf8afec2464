/**
 * The SDK on Node (fetch, memory token store) against the real server, in-process over HTTP: every
 * method's success path and its error codes.
 */
import { ClientCode, routes } from '@edupass/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import * as sdk from './index.ts';
import { nextEmail, nextPhone, PASSWORD, rejection, withRealServer } from './testing/real-server.test-setup.ts';

const real = withRealServer();
const { code } = real;

/** Every answer the SDK got: 'METHOD /path status'. */
const answers: string[] = [];
const recordingFetch: typeof fetch = async (url, init) => {
  const response = await fetch(url, init);
  answers.push(`${init?.method} ${new URL(String(url)).pathname} ${response.status}`);
  return response;
};

const newClient = (extra: Partial<sdk.AccountConfig> = {}) => real.newClient({ fetch: recordingFetch, ...extra });

/** Signs up a fresh phone user on `client` and returns the phone number. */
const signUp = async (client: sdk.AccountClient) => (await real.signUpByPhone(client)).phone;

/** Makes the names this file sets (nickname, username) its own. */
const unique = Math.floor(Math.random() * 10_000_000);

describe('sign-up', () => {
  it('registerByPhone signs in with a token set and the user', async () => {
    const client = newClient();
    const phone = nextPhone();
    await sdk.sendRegisterCode(client, { phone_number: phone });
    const result = await sdk.registerByPhone(client, {
      phone_number: phone,
      captcha: await code(phone),
      password: PASSWORD,
    });
    expect(result.user_info).toMatchObject({ id: expect.any(Number) });
    expect(result.auth).toMatchObject({
      phone_number: `${phone.slice(0, 3)}****${phone.slice(7)}`,
      has_password: true,
    });
    expect(client.tokens.get()).toEqual({
      access: expect.any(String),
      type: expect.any(String),
      refresh: expect.any(String),
    });
    expect(sdk.getSession(client)).toEqual({ status: 'signed-in', user: result.user_info });
  });

  it('a registered phone cannot get a sign-up code (14)', async () => {
    const client = newClient();
    const phone = await signUp(client);
    expect(await rejection(sdk.sendRegisterCode(newClient(), { phone_number: phone }))).toMatchObject({
      code: ClientCode.PHONE_REGISTERED,
      serverCode: 'AC3_0',
      status: 400,
    });
  });

  it('a wrong code fails registration (27)', async () => {
    const client = newClient();
    const phone = nextPhone();
    await sdk.sendRegisterCode(client, { phone_number: phone });
    const wrong = (await code(phone)) === '000000' ? '111111' : '000000';
    expect(
      await rejection(sdk.registerByPhone(client, { phone_number: phone, captcha: wrong, password: PASSWORD })),
    ).toMatchObject({
      code: ClientCode.VERIFY_CAPTCHA_FAIL,
      serverCode: 'AC3_13',
    });
  });

  it('registerByEmail with the ticket of checkEmailCode, then sign-in by e-mail', async () => {
    const client = newClient();
    const email = nextEmail();
    await sdk.sendEmailCode(client, { email });
    const { ticket } = await sdk.checkEmailCode(client, { email, captcha: await code(email) });
    expect(typeof ticket).toBe('string');
    const result = await sdk.registerByEmail(client, {
      captchaTicket: ticket,
      password: PASSWORD,
      rePassword: PASSWORD,
    });
    expect(result.auth.email).toBe(email);
    const again = newClient();
    await sdk.loginByPassword(again, { identity: email, password: PASSWORD });
    expect(again.tokens.get().access).toBeDefined();
    expect(await rejection(sdk.sendEmailCode(newClient(), { email }))).toMatchObject({
      code: ClientCode.EMAIL_REGISTERED,
    });
  });
});

describe('sign-in', () => {
  it('loginByPassword by phone; a wrong password is 16', async () => {
    const phone = await signUp(newClient());
    const client = newClient();
    const result = await sdk.loginByPassword(client, { identity: phone, password: PASSWORD });
    expect(result.auth.token).toMatchObject({
      access: { token: expect.any(String) },
      refresh: { token: expect.any(String) },
    });
    expect(await rejection(sdk.loginByPassword(newClient(), { identity: phone, password: 'Wrong1234' }))).toMatchObject(
      {
        code: ClientCode.USER_NOT_EXIST_OR_WRONG_PASSWORD,
        name: 'USER_NOT_EXIST_OR_WRONG_PASSWORD',
        serverCode: 'AC3_2',
        status: 403,
        body: {
          error_code: 'AC3_2',
          error_number: 16,
          error_category: expect.any(String),
          log_uuid: expect.any(String),
        },
      },
    );
  });

  it('loginByPhone with an SMS code; an unregistered phone is 15', async () => {
    const phone = await signUp(newClient());
    const client = newClient();
    await sdk.sendLoginCode(client, { phone_number: phone });
    const result = await sdk.loginByPhone(client, { phone_number: phone, captcha: await code(phone) });
    expect(result.user_info.id).toEqual(expect.any(Number));
    expect(await rejection(sdk.sendLoginCode(newClient(), { phone_number: nextPhone() }))).toMatchObject({
      code: ClientCode.PHONE_UNREGISTERED,
    });
  });

  it('loginByPhoneSilently creates the account on first use', async () => {
    const client = newClient();
    const phone = nextPhone();
    await sdk.sendSilentLoginCode(client, { phone_number: phone });
    const first = await sdk.loginByPhoneSilently(client, { phone_number: phone, captcha: await code(phone) });
    expect(first.is_first_login).toBe(true);
    await sdk.sendSilentLoginCode(client, { phone_number: phone });
    const second = await sdk.loginByPhoneSilently(client, { phone_number: phone, captcha: await code(phone) });
    expect(second.is_first_login).toBe(false);
    expect(second.user_info.id).toBe(first.user_info.id);
  });

  it('logout ends the session: tokens cleared, the old access and refresh tokens refused', async () => {
    const client = newClient();
    await signUp(client);
    const held = client.tokens.get();
    await sdk.logout(client);
    expect(client.tokens.get()).toEqual({});
    expect(sdk.getSession(client).status).toBe('signed-out');
    const replay = newClient();
    replay.tokens.set({
      access: { token: held.access!, type: held.type!, expires_in: 60 },
      refresh: { token: held.refresh!, expires_in: 60 },
    });
    expect(await rejection(sdk.getProfile(replay))).toMatchObject({ code: ClientCode.NO_TOKEN, serverCode: 'E_0' });
    const refreshOnly = newClient();
    refreshOnly.tokens.set({
      access: { token: 'x', type: held.type!, expires_in: 0 },
      refresh: { token: held.refresh!, expires_in: 60 },
    });
    const error = await rejection(sdk.getProfile(refreshOnly));
    expect(error).toMatchObject({
      code: ClientCode.NO_TOKEN,
      cause: { code: ClientCode.REFRESH_TOKEN_INVALID, serverCode: '10000001' },
    });
  });
});

describe('account', () => {
  let client: sdk.AccountClient;
  let phone: string;
  beforeAll(async () => {
    client = newClient();
    phone = await signUp(client);
  });

  it('getProfile, updateProfile and getPrivacy', async () => {
    const profile = {
      nickname: `Ada${unique}`,
      sex: 1 as const,
      birthday: 946_684_800,
      qq: '123456',
      description: 'hi',
    };
    await sdk.updateProfile(client, profile);
    expect(await sdk.getProfile(client)).toMatchObject(profile);
    expect(sdk.getSession(client).user).toMatchObject(profile);
    expect(await sdk.getPrivacy(client)).toMatchObject({
      has_password: true,
      phone_number: expect.stringContaining('****'),
    });
    expect(
      await rejection(sdk.updateProfile(client, { birthday: Math.floor(Date.now() / 1000) + 86_400 * 30 })),
    ).toMatchObject({
      code: ClientCode.CANNOT_SET_FUTURE_DATE,
    });
  });

  it('setUsername once (19 the second time)', async () => {
    const username = `user_${unique}`;
    await sdk.setUsername(client, { username });
    expect((await sdk.getPrivacy(client)).username).toBe(username);
    expect(await rejection(sdk.setUsername(client, { username: `other_${unique}` }))).toMatchObject({
      code: ClientCode.CANNOT_SET_USERNAME_REPEATEDLY,
    });
  });

  it('initPassword refuses an account that has one (25)', async () => {
    expect(
      await rejection(sdk.initPassword(client, { password: 'Another12', confirm_password: 'Another12' })),
    ).toMatchObject({
      code: ClientCode.INIT_PASSWORD_ONCE,
    });
  });

  it('checkPhoneBind tells a phone bound elsewhere; bindPhone refuses when one is bound', async () => {
    const other = await signUp(newClient());
    expect(await rejection(sdk.checkPhoneBind(client, { phone_number: other }))).toMatchObject({
      code: expect.any(Number),
      serverCode: expect.stringMatching(/^AC3_/),
    });
  });

  it('sendRebindCode + rebindPhone change the bound phone', async () => {
    const next = nextPhone();
    await sdk.sendRebindCode(client, { phone_number: next, old_phone_number: phone });
    await sdk.rebindPhone(client, { phone_number: next, captcha: await code(next) });
    expect((await sdk.getPrivacy(client)).phone_number).toBe(`${next.slice(0, 3)}****${next.slice(7)}`);
    phone = next;
  });

  it('sendCommonCode + checkCommonCode give a ticket', async () => {
    await sdk.sendCommonCode(client, { phone_number: phone });
    expect(await sdk.checkCommonCode(client, { phone_number: phone, captcha: await code(phone) })).toEqual({
      ticket: expect.any(String),
    });
  });

  it('sendVoiceCode sends a code (204, nothing stored)', async () => {
    const before = client.tokens.get();
    expect(await sdk.sendVoiceCode(client, { phone_number: phone, type: 'login' })).toBeUndefined();
    expect(client.tokens.get()).toEqual(before);
  });

  it('listOauths lists both kinds, unbound', async () => {
    const list = await sdk.listOauths(client);
    expect(list.map((o) => [o.name, o.is_bound]).sort()).toEqual([
      ['qq', false],
      ['wechat', false],
    ]);
  });

  it('changePassword: a wrong old one is 23; success clears the tokens', async () => {
    expect(
      await rejection(
        sdk.changePassword(client, { old_password: 'Wrong1234', password: 'Newpass12', confirm_password: 'Newpass12' }),
      ),
    ).toMatchObject({ code: ClientCode.WRONG_OLD_PASSWORD });
    await sdk.changePassword(client, { old_password: PASSWORD, password: 'Newpass12', confirm_password: 'Newpass12' });
    expect(client.tokens.get()).toEqual({});
    await sdk.loginByPassword(client, { identity: phone, password: 'Newpass12' });
  });

  it('changePasswordByPhone clears the tokens too', async () => {
    await sdk.sendPasswordUpdateCode(client, { phone_number: phone });
    await sdk.changePasswordByPhone(client, { phone_number: phone, captcha: await code(phone), password: PASSWORD });
    expect(client.tokens.get()).toEqual({});
    await sdk.loginByPassword(client, { identity: phone, password: PASSWORD });
  });

  it('reset: sendResetCode, checkResetCode, resetPassword; a wrong ticket is 45', async () => {
    const anonymous = newClient();
    await sdk.sendResetCode(anonymous, { phone_number: phone });
    const { ticket } = await sdk.checkResetCode(anonymous, { phone_number: phone, captcha: await code(phone) });
    await sdk.resetPassword(anonymous, { ticket, password: 'Reset1234', confirm_password: 'Reset1234' });
    await sdk.loginByPassword(anonymous, { identity: phone, password: 'Reset1234' });
    expect(
      await rejection(
        sdk.resetPassword(anonymous, { ticket: 'bogus', password: 'Reset1234', confirm_password: 'Reset1234' }),
      ),
    ).toMatchObject({ code: ClientCode.WRONG_TICKET });
  });
});

describe('e-mail user binds a phone', () => {
  it('sendBindPhoneCode + bindPhone', async () => {
    const client = newClient();
    const email = nextEmail();
    await sdk.sendEmailCode(client, { email });
    const { ticket } = await sdk.checkEmailCode(client, { email, captcha: await code(email) });
    await sdk.registerByEmail(client, { captchaTicket: ticket, password: PASSWORD, rePassword: PASSWORD });
    const phone = nextPhone();
    await sdk.checkPhoneBind(client, { phone_number: phone });
    await sdk.sendBindPhoneCode(client, { phone_number: phone });
    await sdk.bindPhone(client, { phone_number: phone, captcha: await code(phone) });
    expect((await sdk.getPrivacy(client)).phone_number).toContain('****');
  });
});

describe('anonymous reads and agreements', () => {
  it('getGradeList and listAgreements', async () => {
    const client = newClient();
    const grades = await sdk.getGradeList(client);
    expect(grades[0]).toMatchObject({ stage: expect.any(String), gradeList: expect.any(Array) });
    expect(Array.isArray(await sdk.listAgreements(client))).toBe(true);
    expect(Array.isArray(await sdk.listAgreementsToSign(client))).toBe(true);
  });

  it('signAgreements and listLatestProtocols', async () => {
    const client = newClient();
    await signUp(client);
    const agreements = await sdk.listAgreements(client);
    if (agreements.length > 0) {
      await sdk.signAgreements(client, { agreement_ids: agreements.map((a) => a.id) });
      const codes = agreements.map((a) => a.code);
      expect((await sdk.listLatestProtocols(client, { codeList: codes })).length).toBeGreaterThan(0);
    } else {
      expect(await sdk.listLatestProtocols(client, { codeList: ['none'] })).toEqual([]);
    }
    expect(await sdk.listAgreementsToSign(client)).toEqual([]);
  });
});

describe('wire statuses', () => {
  it('every successful answer above had the status of its route in the table (200 with a body, or 204)', () => {
    const expected = new Map(Object.values(routes).map((r) => [`${r.method} ${r.path}`, r.status]));
    const successes = answers.filter((line) => / 2\d\d$/.test(line));
    expect(successes.length).toBeGreaterThan(40);
    const wrong = successes.filter((line) => {
      const [method, path, status] = line.split(' ');
      return expected.get(`${method} ${path}`) !== Number(status);
    });
    expect(wrong).toEqual([]);
  });
});
