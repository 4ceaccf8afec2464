import { ClientCode, routes } from '@edupass/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as agreements from './agreements.ts';
import * as avatar from './avatar.ts';
import * as badge from './badge.ts';
import * as deleteAccount from './delete-account.ts';
import * as email from './email.ts';
import * as identity from './identity.ts';
import * as main from './index.ts';
import * as secondFactor from './second-factor.ts';
import * as sessions from './sessions.ts';
import * as stepUp from './step-up.ts';

/** Every call of the SDK: the main entry and every subpath entry's. */
const sdk = {
  ...main,
  ...stepUp,
  ...secondFactor,
  ...agreements,
  ...identity,
  ...email,
  ...sessions,
  ...avatar,
  ...deleteAccount,
  ...badge,
};

import { type FakeApi, startFakeApi } from './testing/fake-api.ts';

let api: FakeApi;
let client: main.AccountClient;
beforeAll(async () => {
  api = await startFakeApi();
  client = sdk.createAccountClient({
    pid: 'edupass',
    appid: 'wx1',
    product_code: 'edupass',
    platform: 'web',
    host: { tiger: api.url },
  });
});
afterAll(() => api.close());

const PHONE = '13800138000';

/** Each case must reject with `code` and `message` before any request leaves. */
const cases: [string, () => Promise<unknown>, number, string?][] = [
  [
    'sendRegisterCode: bad phone',
    () => sdk.sendRegisterCode(client, { phone_number: '12345' }),
    0,
    'Invalid phone_number "12345", it should match the RegExp.',
  ],
  [
    'registerByPhone: bad phone',
    () => sdk.registerByPhone(client, { phone_number: '2', captcha: '123456', password: 'secret1' }),
    0,
  ],
  [
    'registerByPhone: bad password',
    () => sdk.registerByPhone(client, { phone_number: PHONE, captcha: '123456', password: '123' }),
    2,
  ],
  [
    'registerByPhone: bad captcha',
    () => sdk.registerByPhone(client, { phone_number: PHONE, captcha: '12', password: 'secret1' }),
    1,
    'Invalid captcha "12", it should match the RegExp.',
  ],
  [
    'registerByPhone: empty agreement_ids',
    () =>
      sdk.registerByPhone(client, { phone_number: PHONE, captcha: '123456', password: 'secret1', agreement_ids: [] }),
    55,
    'agreement_ids should not be an empty array.',
  ],
  ['sendEmailCode: bad e-mail', () => sdk.sendEmailCode(client, { email: 'not-an-email' }), 51],
  ['checkEmailCode: bad e-mail', () => sdk.checkEmailCode(client, { email: 'x@', captcha: '123456' }), 51],
  [
    'registerByEmail: password mismatch',
    () => sdk.registerByEmail(client, { captchaTicket: 't', password: 'secret1', rePassword: 'secret2' }),
    10,
    'Password is not equal to confirmed password.',
  ],
  ['loginByPhone: bad code', () => sdk.loginByPhone(client, { phone_number: PHONE, captcha: 'abcdef' }), 1],
  ['sendLoginCode: bad phone', () => sdk.sendLoginCode(client, { phone_number: '' }), 0],
  ['sendSilentLoginCode: bad phone', () => sdk.sendSilentLoginCode(client, { phone_number: '10000000000' }), 0],
  [
    'loginByPhoneSilently: bad phone',
    () => sdk.loginByPhoneSilently(client, { phone_number: '1', captcha: '123456' }),
    0,
  ],
  ['sendOauthBindCode: bad phone', () => sdk.sendOauthBindCode(client, { phone_number: '1', oauth_ticket: 't' }), 0],
  ['setUsername: bad username', () => sdk.setUsername(client, { username: '1abc' }), 3],
  ['initPassword: mismatch', () => sdk.initPassword(client, { password: 'secret1', confirm_password: 'secret2' }), 10],
  ['initPassword: bad password', () => sdk.initPassword(client, { password: 'a b', confirm_password: 'a b' }), 2],
  [
    'changePassword: mismatch',
    () => sdk.changePassword(client, { old_password: 'x', password: 'secret1', confirm_password: 'x' }),
    10,
  ],
  [
    'changePasswordByPhone: bad code',
    () => sdk.changePasswordByPhone(client, { phone_number: PHONE, captcha: '1', password: 'secret1' }),
    1,
  ],
  ['sendPasswordUpdateCode: bad phone', () => sdk.sendPasswordUpdateCode(client, { phone_number: '1' }), 0],
  ['sendResetCode: bad phone', () => sdk.sendResetCode(client, { phone_number: '1' }), 0],
  ['checkResetCode: bad code', () => sdk.checkResetCode(client, { phone_number: PHONE, captcha: '' }), 1],
  [
    'resetPassword: mismatch',
    () => sdk.resetPassword(client, { ticket: 't', password: 'secret1', confirm_password: 'secret9' }),
    10,
  ],
  ['sendBindPhoneCode: bad phone', () => sdk.sendBindPhoneCode(client, { phone_number: '1' }), 0],
  ['bindPhone: bad code', () => sdk.bindPhone(client, { phone_number: PHONE, captcha: '1' }), 1],
  ['checkPhoneBind: bad phone', () => sdk.checkPhoneBind(client, { phone_number: '1' }), 0],
  [
    'sendRebindCode: bad old phone',
    () => sdk.sendRebindCode(client, { phone_number: PHONE, old_phone_number: '1' }),
    0,
  ],
  ['rebindPhone: bad phone', () => sdk.rebindPhone(client, { phone_number: '1', captcha: '123456' }), 0],
  ['sendCommonCode: bad phone', () => sdk.sendCommonCode(client, { phone_number: '1' }), 0],
  ['checkCommonCode: bad code', () => sdk.checkCommonCode(client, { phone_number: PHONE, captcha: '1' }), 1],
  ['sendVoiceCode: bad phone', () => sdk.sendVoiceCode(client, { phone_number: '1', type: 'login' }), 0],
  ['updateProfile: bad sex', () => sdk.updateProfile(client, { sex: 2 as 0 }), 8, 'Invalid sex, it should be 0 or 1.'],
  [
    'updateProfile: long description',
    () => sdk.updateProfile(client, { description: 'x'.repeat(51) }),
    7,
    'Invalid description, it should contains only 0 - 50 characters.',
  ],
  ['updateProfile: bad birthday', () => sdk.updateProfile(client, { birthday: 1.5 }), 9],
  ['updateProfile: bad nickname', () => sdk.updateProfile(client, { nickname: 'a b' }), 4],
  ['updateProfile: bad fullname', () => sdk.updateProfile(client, { fullname: 'A' }), 5],
  ['updateProfile: bad qq', () => sdk.updateProfile(client, { qq: '12' }), 6],
  [
    'updateProfile: a field that is not settable',
    () => sdk.updateProfile(client, { username: 'x' } as main.ProfileInput),
    ClientCode.INVALID_REQUEST,
  ],
  ['signAgreements: empty', () => sdk.signAgreements(client, { agreement_ids: [] }), 55],
];

describe('validation before any request', () => {
  it.each(cases)('%s', async (_name, run, code, message) => {
    const before = api.requests.length;
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(sdk.isAuthError(error)).toBe(true);
    expect(error).toMatchObject({ code, ...(message && { message }) });
    expect(api.requests.length).toBe(before);
  });

  it('checks only the profile fields present, and sends only those', async () => {
    api.on('PATCH /tiger/v3/web/accounts/info', () => ({ status: 204 }));
    // Without auth_version the session rides on the HttpOnly cookie: no token needed here.
    await sdk.updateProfile(client, { nickname: 'Ada', sex: 1 });
    expect(api.requests.at(-1)!.body).toEqual({ nickname: 'Ada', sex: 1 });
  });
});

describe('bodies', () => {
  it('fill pid, appid and the default agreement_ids, and uppercase the voice code type', async () => {
    api.on('POST /tiger/v3/web/accounts/oauth/wechat', () => ({
      status: 200,
      body: { oauth_ticket: 'o', user_exists: false },
    }));
    api.on('POST /tiger/v3/web/accounts/voice/captcha/send', () => ({ status: 204 }));
    api.on('POST /tiger/v3/web/accounts/captcha/register/phone/with-agreement', () => ({ status: 204 }));
    expect(await sdk.loginByWechat(client, { code: 'c1' })).toEqual({ oauth_ticket: 'o', user_exists: false });
    expect(api.requests.at(-1)!.body).toEqual({ code: 'c1', pid: 'edupass', appid: 'wx1', agreement_ids: [-1] });
    expect(await sdk.sendVoiceCode(client, { phone_number: PHONE, type: 'login' })).toBeUndefined();
    expect(api.requests.at(-1)!.body).toEqual({ phone_number: PHONE, type: 'LOGIN', pid: 'edupass' });
    await sdk.sendRegisterCode(client, { phone_number: PHONE }, { ticket: 'tk', appid: 'cap-1' });
    expect(api.requests.at(-1)!.headers).toMatchObject({ 'x-captcha-ticket': 'tk', 'x-captcha-id': 'cap-1' });
    expect(api.requests.at(-1)!.body).toEqual({ phone_number: PHONE, pid: 'edupass' });
  });

  it('every route of the table has a method of the same name', () => {
    const aliases: Record<string, string> = { deleteTokens: 'revokeTokens', interaction: 'interactionDetails' };
    const accountRoutes = Object.entries(routes).filter(([, r]) => r.path.startsWith('/tiger/v3/web/'));
    for (const [name] of accountRoutes)
      expect(typeof (sdk as Record<string, unknown>)[aliases[name] ?? name], name).toBe('function');
  });
});
