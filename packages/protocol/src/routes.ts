/**
 * The route table: every call of the specification (§7), once. The server registers its handlers
 * from it, the SDK builds its requests from it, and the API docs are generated from it.
 */

import type { checks } from './validation.ts';

export type RuleName = keyof typeof checks;
export type HostKind = 'tiger' | 'platform';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A body or query field: its JSON type and whether it must be there. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'integer[]' | 'string[]' | 'any';
export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  /** Longest accepted string, to refuse junk before any rule runs. */
  maxLength?: number;
  /** The validation rule of §5 the value must pass; its failure is the answer for a missing value too. */
  rule?: RuleName;
}
export type Fields = Record<string, FieldSpec>;

export interface RouteSpec {
  method: Method;
  /** Path relative to the host kind's base. */
  path: string;
  host: HostKind;
  /** 'token': needs a signed-in user; 'optional': reads the user when there is one; 'operator': needs the operator role. */
  auth: 'none' | 'token' | 'optional' | 'operator';
  summary: string;
  body?: Fields;
  query?: Fields;
  /** Headers the call may carry besides the standard ones. */
  headers?: readonly ('X-Captcha-Ticket' | 'X-Captcha-Id')[];
  /** Success status: 200 with a body, or 204 with none. */
  status: 200 | 204;
}

export const ACCOUNTS_BASE = '/tiger/v3/web/accounts';
export const TOKENS_BASE = '/tiger/v3/web/tokens';

/* @__NO_SIDE_EFFECTS__ */
const s = (maxLength = 256) => ({ type: 'string', required: true, maxLength }) as const;
/* @__NO_SIDE_EFFECTS__ */
const int = () => ({ type: 'integer', required: true }) as const;
/* @__NO_SIDE_EFFECTS__ */
const opt = <F extends FieldSpec>(field: F) => ({ ...field, required: false }) as const;
interface Ruled<R extends RuleName, T extends FieldType> {
  readonly type: T;
  readonly required: true;
  readonly maxLength: 256;
  readonly rule: R;
}
// Overloads rather than a defaulted type parameter: inside a route literal the contextual type
// would otherwise widen `type` to every FieldType.
function ruled<R extends RuleName>(rule: R): Ruled<R, 'string'>;
function ruled<R extends RuleName, T extends FieldType>(rule: R, type: T): Ruled<R, T>;
/* @__NO_SIDE_EFFECTS__ */
function ruled(rule: RuleName, type: FieldType = 'string'): Ruled<RuleName, FieldType> {
  return { type, required: true, maxLength: 256, rule };
}
const ids = { type: 'integer[]', required: false, maxLength: 64 } as const;
const pid = s(64);
const phone = ruled('phone_number');
const captcha = ruled('captcha');
const password = ruled('password');

/* @__NO_SIDE_EFFECTS__ */
const account = <const A extends RouteSpec['auth'], const E extends Partial<RouteSpec> = Record<never, never>>(
  method: Method,
  path: string,
  auth: A,
  summary: string,
  extra: E = {} as E,
) =>
  ({ method, path: `${ACCOUNTS_BASE}/${path}`, host: 'tiger', auth, summary, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: A; summary: string; status: 200 },
    keyof E
  > &
    E;

/* @__NO_SIDE_EFFECTS__ */
const captchaRoute = <const H extends HostKind, const B extends Fields>(
  host: H,
  path: string,
  summary: string,
  body: B,
) => ({ method: 'POST', path, host, auth: 'none', summary, body, status: 200 }) as const;
// Lenient on purpose: existing callers send pid as a number, omit scene, or send ms timestamps.
const ruleBody = {
  identity: opt(s()),
  scene: opt(s(64)),
  pid: { type: 'any', required: false },
  deviceId: opt(s(256)),
  timestamp: { type: 'number', required: false },
  capabilities: { type: 'string[]', required: false, maxLength: 8 },
} as const;
/**
 * EduPass's SDK also sends the scene and identity it asked the rule for, so the ticket is bound to
 * them; existing clients leave them out and get a ticket bound to neither.
 */
const binding = { scene: opt(s(64)), identity: opt(s()) } as const;
// Through a function so the spread stays out of module scope, where bundlers take it for a side effect
// and keep the whole route table in every SDK bundle.
/* @__NO_SIDE_EFFECTS__ */
const bound = <const F extends Fields>(fields: F) => ({ ...fields, ...binding });
const geetestBody = bound({
  geetest_challenge: s(128),
  geetest_validate: s(128),
  geetest_seccode: s(256),
  appid: s(),
});
const tencentBody = bound({ appid: s(), tencentTicket: s(4096), randomStr: s(256) });

// Each account and token route is its own export so a bundler keeps only the routes a program
// calls (the SDK's size budget); `routes` gathers them for the server and the docs.
export const sendRegisterCodeRoute = account(
  'POST',
  'captcha/register/phone/with-agreement',
  'none',
  'Send a sign-up code by SMS',
  {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  },
);
export const registerByPhoneRoute = account(
  'POST',
  'register/phone/with-agreement',
  'none',
  'Sign up with phone, code and password',
  {
    body: { phone_number: phone, captcha, password, agreement_ids: ruled('agreement_ids', 'integer[]'), pid },
  },
);
export const sendEmailCodeRoute = account('POST', 'email/captcha/send', 'none', 'Send a sign-up code by e-mail', {
  body: { email: ruled('email'), pid: opt(s(64)) },
  headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
  status: 204,
});
export const checkEmailCodeRoute = account(
  'POST',
  'email/captcha/check',
  'none',
  'Check an e-mail code; returns a ticket',
  {
    body: { email: ruled('email'), captcha },
  },
);
export const registerByEmailRoute = account(
  'POST',
  'email/register',
  'none',
  'Sign up with an e-mail ticket and password',
  {
    body: { captchaTicket: s(), password, rePassword: s(), pid },
  },
);
export const sendLoginCodeRoute = account('POST', 'captcha/login/post-process', 'none', 'Send a sign-in code by SMS', {
  body: { phone_number: phone, pid },
  headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
  status: 204,
});
export const loginByPhoneRoute = account('POST', 'phone/login/post-process', 'none', 'Sign in with phone and code', {
  body: { phone_number: phone, captcha, pid, agreement_ids: ids },
});
export const sendSilentLoginCodeRoute = account(
  'POST',
  'captcha/login/silence',
  'none',
  'Send a code for sign-in-or-sign-up',
  {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  },
);
export const loginByPhoneSilentlyRoute = account(
  'POST',
  'phone/login/silence',
  'none',
  'Sign in with phone and code, creating the account on first use',
  {
    body: { phone_number: phone, captcha, pid, agreement_ids: ids },
  },
);
export const loginByPasswordRoute = account(
  'POST',
  'login',
  'none',
  'Sign in with phone, username or e-mail and password',
  {
    body: { identity: s(), password: s(), pid, agreement_ids: ids },
  },
);
export const loginByPasswordSecureRoute = account(
  'POST',
  'login/security',
  'none',
  'Password sign-in that requires a captcha ticket',
  {
    body: { identity: s(), password: s(), pid, agreement_ids: ids },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
  },
);
export const logoutRoute = account('POST', 'logout', 'token', 'Sign out and end the session', {
  body: { refresh_token: opt(s(512)) },
  status: 204,
});
export const loginByWechatRoute = account('POST', 'oauth/wechat', 'none', 'Sign in with a WeChat code', {
  body: { code: s(), pid, appid: opt(s()), agreement_ids: ids },
});
export const loginByQQRoute = account('POST', 'oauth/qq', 'none', 'Sign in with a QQ code', {
  body: { code: s(), pid, agreement_ids: ids },
});
export const sendOauthBindCodeRoute = account(
  'POST',
  'captcha/oauth',
  'none',
  'Send a code to the phone a third-party account binds',
  {
    body: { phone_number: phone, oauth_ticket: s(), pid: opt(s()) },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  },
);
export const createOauthUserRoute = account(
  'POST',
  'oauth/third-party',
  'none',
  'Bind a phone to, or create, the user of an oauth_ticket',
  {
    body: { oauth_ticket: s(), phone_number: opt(s()), captcha: opt(s()), agreement_ids: ids },
  },
);
export const checkOauthBindRoute = account(
  'GET',
  'oauth/third-party',
  'none',
  'Whether the account of an oauth_ticket exists',
  {
    query: { oauth_ticket: s() },
  },
);
export const bindWechatRoute = account('POST', 'oauth/wechat/bind', 'token', 'Bind a WeChat account', {
  body: { code: s(), appid: opt(s()) },
  status: 204,
});
export const unbindWechatRoute = account('PATCH', 'oauth/wechat/unbind', 'token', 'Unbind the WeChat account', {
  status: 204,
});
export const bindQQRoute = account('POST', 'oauth/qq/bind', 'token', 'Bind a QQ account', {
  body: { code: s(), agreement_ids: ids },
  status: 204,
});
export const unbindQQRoute = account('PATCH', 'oauth/qq/unbind', 'token', 'Unbind the QQ account', { status: 204 });
export const listOauthsRoute = account('GET', 'oauths', 'token', 'Third-party accounts and whether each is bound');
export const setUsernameRoute = account('PATCH', 'username', 'token', 'Set the username (once)', {
  body: { username: ruled('username') },
  status: 204,
});
export const initPasswordRoute = account('PATCH', 'password/setting', 'token', 'Set the first password', {
  body: { password, confirm_password: s() },
  status: 204,
});
export const changePasswordRoute = account('PATCH', 'password', 'token', 'Change the password with the old one', {
  body: { old_password: s(), password, confirm_password: s() },
  status: 204,
});
export const sendPasswordUpdateCodeRoute = account(
  'POST',
  'captcha/password/update',
  'token',
  'Send a code for changing the password',
  {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  },
);
export const changePasswordByPhoneRoute = account(
  'PATCH',
  'password/phone',
  'token',
  'Change the password with a code',
  {
    body: { phone_number: phone, captcha, password },
    status: 204,
  },
);
export const sendResetCodeRoute = account(
  'POST',
  'captcha/password/reset',
  'none',
  'Send a code for resetting the password',
  {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  },
);
export const checkResetCodeRoute = account(
  'POST',
  'captcha/password/check',
  'none',
  'Check a reset code; returns a ticket',
  {
    body: { phone_number: phone, captcha },
  },
);
export const resetPasswordRoute = account('PATCH', 'password/reset', 'none', 'Reset the password with a ticket', {
  body: { ticket: s(), password, confirm_password: s() },
  status: 204,
});
export const sendBindPhoneCodeRoute = account(
  'POST',
  'captcha/phone/bind',
  'token',
  'Send a code to the phone to bind',
  {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  },
);
export const bindPhoneRoute = account('PATCH', 'phone/bind', 'token', 'Bind a phone number', {
  body: { phone_number: phone, captcha },
  status: 204,
});
export const checkPhoneBindRoute = account(
  'GET',
  'phone/check',
  'token',
  'Whether a phone number can be bound (204) or why not',
  {
    query: { phone_number: phone },
    status: 204,
  },
);
export const sendRebindCodeRoute = account('POST', 'captcha/phone/change', 'token', 'Send a code to the new phone', {
  body: { phone_number: phone, old_phone_number: phone, pid },
  headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
  status: 204,
});
export const rebindPhoneRoute = account('PATCH', 'phone/change', 'token', 'Change the bound phone number', {
  body: { phone_number: phone, captcha },
  status: 204,
});
export const sendCommonCodeRoute = account('POST', 'captcha/common', 'none', 'Send a general-purpose code', {
  body: { phone_number: phone, pid },
  headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
  status: 204,
});
export const checkCommonCodeRoute = account(
  'POST',
  'captcha/common/check',
  'none',
  'Check a general-purpose code; returns a ticket',
  {
    body: { phone_number: phone, captcha },
  },
);
export const sendVoiceCodeRoute = account('POST', 'voice/captcha/send', 'none', 'Send a code by voice call', {
  body: { phone_number: phone, type: s(), oauth_ticket: opt(s()), pid: opt(s()) },
  headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
  status: 204,
});
export const getProfileRoute = account('GET', 'profile', 'token', 'The user profile');
export const updateProfileRoute = account('PATCH', 'info', 'token', 'Update profile fields', {
  body: {
    nickname: opt(ruled('nickname')),
    avatar_url: opt(s(1024)),
    fullname: opt(ruled('fullname')),
    birthday: opt(ruled('birthday', 'integer')),
    sex: opt(ruled('sex', 'integer')),
    qq: opt(ruled('qq')),
    description: opt(ruled('description')),
    grade: opt(int()),
  },
  status: 204,
});
export const getPrivacyRoute = account(
  'GET',
  'privacy',
  'token',
  'Username, e-mail, phone and whether a password is set',
);
export const getGradeListRoute = account('GET', 'grade-list', 'none', 'Grades by school stage');
export const listAgreementsRoute = account('GET', 'agreements', 'none', 'The current agreements');
export const listAgreementsToSignRoute = account(
  'GET',
  'agreements/need-sign',
  'optional',
  'Agreements the user has yet to sign',
);
export const signAgreementsRoute = account('POST', 'agreements/sign', 'token', 'Sign agreements', {
  body: { agreement_ids: ruled('agreement_ids', 'integer[]'), pid },
  status: 204,
});
export const listLatestProtocolsRoute = account('POST', 'protocol/list', 'none', 'The latest agreement of each code', {
  body: { codeList: { type: 'string[]', required: true, maxLength: 50 }, pid },
});
/* @__NO_SIDE_EFFECTS__ */
const token = <const R extends Omit<RouteSpec, 'path' | 'host'>>(path: string, route: R) =>
  ({ ...route, path: `${TOKENS_BASE}${path}`, host: 'tiger' }) as R & { path: string; host: 'tiger' };
export const refreshTokensRoute = token('/refresh', {
  method: 'PUT',
  auth: 'none',
  summary: 'Exchange a refresh token for a new token set',
  body: { refresh_token: s(512) },
  status: 200,
});
export const deleteTokensRoute = token('', {
  method: 'DELETE',
  auth: 'token',
  summary: 'Revoke the session of the presented token',
  body: { refresh_token: opt(s(512)) },
  status: 204,
});
export const convertCookieRoute = token('/convert', {
  method: 'POST',
  auth: 'none',
  summary: 'Convert a legacy session cookie into a token set',
  status: 200,
});

export const routes = {
  // Sign-up
  sendRegisterCode: sendRegisterCodeRoute,
  registerByPhone: registerByPhoneRoute,
  sendEmailCode: sendEmailCodeRoute,
  checkEmailCode: checkEmailCodeRoute,
  registerByEmail: registerByEmailRoute,
  // Sign-in
  sendLoginCode: sendLoginCodeRoute,
  loginByPhone: loginByPhoneRoute,
  sendSilentLoginCode: sendSilentLoginCodeRoute,
  loginByPhoneSilently: loginByPhoneSilentlyRoute,
  loginByPassword: loginByPasswordRoute,
  loginByPasswordSecure: loginByPasswordSecureRoute,
  logout: logoutRoute,
  // Third-party sign-in
  loginByWechat: loginByWechatRoute,
  loginByQQ: loginByQQRoute,
  sendOauthBindCode: sendOauthBindCodeRoute,
  createOauthUser: createOauthUserRoute,
  checkOauthBind: checkOauthBindRoute,
  bindWechat: bindWechatRoute,
  unbindWechat: unbindWechatRoute,
  bindQQ: bindQQRoute,
  unbindQQ: unbindQQRoute,
  listOauths: listOauthsRoute,
  // Username and password
  setUsername: setUsernameRoute,
  initPassword: initPasswordRoute,
  changePassword: changePasswordRoute,
  sendPasswordUpdateCode: sendPasswordUpdateCodeRoute,
  changePasswordByPhone: changePasswordByPhoneRoute,
  sendResetCode: sendResetCodeRoute,
  checkResetCode: checkResetCodeRoute,
  resetPassword: resetPasswordRoute,
  // Phone
  sendBindPhoneCode: sendBindPhoneCodeRoute,
  bindPhone: bindPhoneRoute,
  checkPhoneBind: checkPhoneBindRoute,
  sendRebindCode: sendRebindCodeRoute,
  rebindPhone: rebindPhoneRoute,
  // Codes for any purpose
  sendCommonCode: sendCommonCodeRoute,
  checkCommonCode: checkCommonCodeRoute,
  sendVoiceCode: sendVoiceCodeRoute,
  // Profile
  getProfile: getProfileRoute,
  updateProfile: updateProfileRoute,
  getPrivacy: getPrivacyRoute,
  getGradeList: getGradeListRoute,
  // Agreements
  listAgreements: listAgreementsRoute,
  listAgreementsToSign: listAgreementsToSignRoute,
  signAgreements: signAgreementsRoute,
  listLatestProtocols: listLatestProtocolsRoute,
  // Tokens
  refreshTokens: refreshTokensRoute,
  deleteTokens: deleteTokensRoute,
  convertCookie: convertCookieRoute,
  // Human verification (compatibility.md "Captcha rule"). The platform paths are the SDK's; the
  // tiger ones are the older main-backend spellings of the same calls.
  captchaRule: captchaRoute('platform', '/captcha/rule/v3', 'Which captcha to run, or a ticket to use now', ruleBody),
  captchaGraphRule: captchaRoute('tiger', '/tiger/captcha/graph/rule', 'Which captcha to run (main backend)', ruleBody),
  geetestRegister: captchaRoute('platform', '/captcha/geetest/register', 'Geetest start parameters', { appid: s() }),
  geetestRegisterSlide: captchaRoute(
    'tiger',
    '/tiger/captcha/geetest/register_slide',
    'Geetest start parameters (main backend)',
    {
      appid: s(),
    },
  ),
  geetestVerify: captchaRoute(
    'platform',
    '/captcha/geetest/verify',
    'Exchange a Geetest result for a ticket',
    geetestBody,
  ),
  geetestTicket: captchaRoute(
    'tiger',
    '/tiger/captcha/tickets/geetest',
    'Exchange a Geetest result for a ticket (main backend)',
    geetestBody,
  ),
  tencentCheck: captchaRoute('platform', '/captcha/tencent', 'Exchange a Tencent result for a ticket', tencentBody),
  tencentTicket: captchaRoute(
    'tiger',
    '/tiger/captcha/tickets/waterproof-wall',
    'Exchange a Tencent result for a ticket (main backend)',
    tencentBody,
  ),
  neteaseCheck: captchaRoute(
    'platform',
    '/captcha/netease',
    'Exchange a NetEase result for a ticket',
    bound({
      validate: s(4096),
      appid: s(),
    }),
  ),
  nextdataCheck: captchaRoute(
    'platform',
    '/captcha/nextdata',
    'Exchange a NextData (Shumei) result for a ticket',
    bound({
      rid: s(512),
      appid: s(),
    }),
  ),
  // `scene` here is Aliyun's scene (the spec's aliyun_login), so the binding scene travels as captchaScene.
  aliyunCheck: captchaRoute('platform', '/captcha/aliyun', 'Exchange an Aliyun result for a ticket and appid', {
    appKey: s(),
    scene: opt(s()),
    captchaVerifyParam: s(8192),
    captchaScene: opt(s(64)),
    identity: opt(s()),
  }),
  slideChallenge: captchaRoute('platform', '/captcha/slide/challenge', "A fresh challenge of EduPass's slide puzzle", {
    scene: opt(s(64)),
    identity: opt(s()),
    deviceId: opt(s(256)),
  }),
  slideVerify: captchaRoute('platform', '/captcha/slide/verify', 'Answer a slide puzzle; returns a ticket', {
    id: s(128),
    x: { type: 'number', required: true },
    trajectory: { type: 'any', required: true },
    input: opt(s(16)),
  }),
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof routes;

type FieldValue<T extends FieldType> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'integer[]'
        ? number[]
        : T extends 'string[]'
          ? string[]
          : unknown;

/** The parsed shape of a field set: required fields present, the others optional. */
export type Parsed<F> = F extends Fields
  ? { [K in keyof F as F[K]['required'] extends true ? K : never]: FieldValue<F[K]['type']> } & {
      [K in keyof F as F[K]['required'] extends true ? never : K]?: FieldValue<F[K]['type']>;
    }
  : Record<string, never>;

export type BodyOf<N extends RouteName> = Parsed<(typeof routes)[N] extends { body: infer B } ? B : undefined>;
export type QueryOf<N extends RouteName> = Parsed<(typeof routes)[N] extends { query: infer Q } ? Q : undefined>;
