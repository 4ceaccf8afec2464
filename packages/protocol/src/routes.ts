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
  /** 'token': needs a signed-in user; 'optional': reads the user when there is one. */
  auth: 'none' | 'token' | 'optional';
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

const s = (required = true, maxLength = 256): FieldSpec => ({ type: 'string', required, maxLength });
const int = (required = true): FieldSpec => ({ type: 'integer', required });
const ruled = (rule: RuleName, type: FieldType = 'string', required = true): FieldSpec => ({
  type,
  required,
  maxLength: 256,
  rule,
});
const ids: FieldSpec = { type: 'integer[]', maxLength: 64 };
const pid = s(true, 64);
const phone = ruled('phone_number');
const captcha = ruled('captcha');
const password = ruled('password');

const account = (
  method: Method,
  path: string,
  auth: RouteSpec['auth'],
  summary: string,
  extra: Partial<RouteSpec> = {},
): RouteSpec => ({ method, path: `${ACCOUNTS_BASE}/${path}`, host: 'tiger', auth, summary, status: 200, ...extra });

const captchaRoute = (host: HostKind, path: string, summary: string, body: Fields): RouteSpec => ({
  method: 'POST',
  path,
  host,
  auth: 'none',
  summary,
  body,
  status: 200,
});
// Lenient on purpose: existing callers send pid as a number, omit scene, or send ms timestamps.
const ruleBody: Fields = {
  identity: s(false),
  scene: s(false, 64),
  pid: { type: 'any' },
  deviceId: s(false, 256),
  timestamp: { type: 'number' },
  capabilities: { type: 'string[]', maxLength: 8 },
};
const geetestBody: Fields = {
  geetest_challenge: s(true, 128),
  geetest_validate: s(true, 128),
  geetest_seccode: s(true, 256),
  appid: s(),
};
const tencentBody: Fields = { appid: s(), tencentTicket: s(true, 4096), randomStr: s(true, 256) };

export const routes = {
  // Sign-up
  sendRegisterCode: account('POST', 'captcha/register/phone/with-agreement', 'none', 'Send a sign-up code by SMS', {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  registerByPhone: account('POST', 'register/phone/with-agreement', 'none', 'Sign up with phone, code and password', {
    body: { phone_number: phone, captcha, password, agreement_ids: ruled('agreement_ids', 'integer[]'), pid },
  }),
  sendEmailCode: account('POST', 'email/captcha/send', 'none', 'Send a sign-up code by e-mail', {
    body: { email: ruled('email'), pid: s(false, 64) },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  checkEmailCode: account('POST', 'email/captcha/check', 'none', 'Check an e-mail code; returns a ticket', {
    body: { email: ruled('email'), captcha },
  }),
  registerByEmail: account('POST', 'email/register', 'none', 'Sign up with an e-mail ticket and password', {
    body: { captchaTicket: s(), password, rePassword: s(), pid },
  }),
  // Sign-in
  sendLoginCode: account('POST', 'captcha/login/post-process', 'none', 'Send a sign-in code by SMS', {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  loginByPhone: account('POST', 'phone/login/post-process', 'none', 'Sign in with phone and code', {
    body: { phone_number: phone, captcha, pid, agreement_ids: ids },
  }),
  sendSilentLoginCode: account('POST', 'captcha/login/silence', 'none', 'Send a code for sign-in-or-sign-up', {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  loginByPhoneSilently: account('POST', 'phone/login/silence', 'none', 'Sign in with phone and code, creating the account on first use', {
    body: { phone_number: phone, captcha, pid, agreement_ids: ids },
  }),
  loginByPassword: account('POST', 'login', 'none', 'Sign in with phone, username or e-mail and password', {
    body: { identity: s(), password: s(), pid, agreement_ids: ids },
  }),
  loginByPasswordSecure: account('POST', 'login/security', 'none', 'Password sign-in that requires a captcha ticket', {
    body: { identity: s(), password: s(), pid, agreement_ids: ids },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
  }),
  logout: account('POST', 'logout', 'token', 'Sign out and end the session', {
    body: { refresh_token: s(false, 512) },
    status: 204,
  }),
  // Third-party sign-in
  loginByWechat: account('POST', 'oauth/wechat', 'none', 'Sign in with a WeChat code', {
    body: { code: s(), pid, appid: s(false), agreement_ids: ids },
  }),
  loginByQQ: account('POST', 'oauth/qq', 'none', 'Sign in with a QQ code', {
    body: { code: s(), pid, agreement_ids: ids },
  }),
  sendOauthBindCode: account('POST', 'captcha/oauth', 'none', 'Send a code to the phone a third-party account binds', {
    body: { phone_number: phone, oauth_ticket: s(), pid: s(false) },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  createOauthUser: account('POST', 'oauth/third-party', 'none', 'Bind a phone to, or create, the user of an oauth_ticket', {
    body: { oauth_ticket: s(), phone_number: s(false), captcha: s(false), agreement_ids: ids },
  }),
  checkOauthBind: account('GET', 'oauth/third-party', 'none', 'Whether the account of an oauth_ticket exists', {
    query: { oauth_ticket: s() },
  }),
  bindWechat: account('POST', 'oauth/wechat/bind', 'token', 'Bind a WeChat account', { body: { code: s(), appid: s(false) }, status: 204 }),
  unbindWechat: account('PATCH', 'oauth/wechat/unbind', 'token', 'Unbind the WeChat account', { status: 204 }),
  bindQQ: account('POST', 'oauth/qq/bind', 'token', 'Bind a QQ account', { body: { code: s(), agreement_ids: ids }, status: 204 }),
  unbindQQ: account('PATCH', 'oauth/qq/unbind', 'token', 'Unbind the QQ account', { status: 204 }),
  listOauths: account('GET', 'oauths', 'token', 'Third-party accounts and whether each is bound'),
  // Username and password
  setUsername: account('PATCH', 'username', 'token', 'Set the username (once)', { body: { username: ruled('username') }, status: 204 }),
  initPassword: account('PATCH', 'password/setting', 'token', 'Set the first password', {
    body: { password, confirm_password: s() },
    status: 204,
  }),
  changePassword: account('PATCH', 'password', 'token', 'Change the password with the old one', {
    body: { old_password: s(), password, confirm_password: s() },
    status: 204,
  }),
  sendPasswordUpdateCode: account('POST', 'captcha/password/update', 'token', 'Send a code for changing the password', {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  changePasswordByPhone: account('PATCH', 'password/phone', 'token', 'Change the password with a code', {
    body: { phone_number: phone, captcha, password },
    status: 204,
  }),
  sendResetCode: account('POST', 'captcha/password/reset', 'none', 'Send a code for resetting the password', {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  checkResetCode: account('POST', 'captcha/password/check', 'none', 'Check a reset code; returns a ticket', {
    body: { phone_number: phone, captcha },
  }),
  resetPassword: account('PATCH', 'password/reset', 'none', 'Reset the password with a ticket', {
    body: { ticket: s(), password, confirm_password: s() },
    status: 204,
  }),
  // Phone
  sendBindPhoneCode: account('POST', 'captcha/phone/bind', 'token', 'Send a code to the phone to bind', {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  bindPhone: account('PATCH', 'phone/bind', 'token', 'Bind a phone number', { body: { phone_number: phone, captcha }, status: 204 }),
  checkPhoneBind: account('GET', 'phone/check', 'token', 'Whether a phone number can be bound (204) or why not', {
    query: { phone_number: phone },
    status: 204,
  }),
  sendRebindCode: account('POST', 'captcha/phone/change', 'token', 'Send a code to the new phone', {
    body: { phone_number: phone, old_phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  rebindPhone: account('PATCH', 'phone/change', 'token', 'Change the bound phone number', {
    body: { phone_number: phone, captcha },
    status: 204,
  }),
  // Codes for any purpose
  sendCommonCode: account('POST', 'captcha/common', 'none', 'Send a general-purpose code', {
    body: { phone_number: phone, pid },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  checkCommonCode: account('POST', 'captcha/common/check', 'none', 'Check a general-purpose code; returns a ticket', {
    body: { phone_number: phone, captcha },
  }),
  sendVoiceCode: account('POST', 'voice/captcha/send', 'none', 'Send a code by voice call', {
    body: { phone_number: phone, type: s(), oauth_ticket: s(false), pid: s(false) },
    headers: ['X-Captcha-Ticket', 'X-Captcha-Id'],
    status: 204,
  }),
  // Profile
  getProfile: account('GET', 'profile', 'token', 'The user profile'),
  updateProfile: account('PATCH', 'info', 'token', 'Update profile fields', {
    body: {
      nickname: ruled('nickname', 'string', false),
      avatar_url: s(false, 1024),
      fullname: ruled('fullname', 'string', false),
      birthday: ruled('birthday', 'integer', false),
      sex: ruled('sex', 'integer', false),
      qq: ruled('qq', 'string', false),
      description: ruled('description', 'string', false),
      grade: int(false),
    },
    status: 204,
  }),
  getPrivacy: account('GET', 'privacy', 'token', 'Username, e-mail, phone and whether a password is set'),
  getGradeList: account('GET', 'grade-list', 'none', 'Grades by school stage'),
  // Agreements
  listAgreements: account('GET', 'agreements', 'none', 'The current agreements'),
  listAgreementsToSign: account('GET', 'agreements/need-sign', 'optional', 'Agreements the user has yet to sign'),
  signAgreements: account('POST', 'agreements/sign', 'token', 'Sign agreements', {
    body: { agreement_ids: ruled('agreement_ids', 'integer[]'), pid },
    status: 204,
  }),
  listLatestProtocols: account('POST', 'protocol/list', 'none', 'The latest agreement of each code', {
    body: { codeList: { type: 'string[]', required: true }, pid },
  }),
  // Tokens
  refreshTokens: {
    method: 'PUT',
    path: `${TOKENS_BASE}/refresh`,
    host: 'tiger',
    auth: 'none',
    summary: 'Exchange a refresh token for a new token set',
    body: { refresh_token: s(true, 512) },
    status: 200,
  },
  deleteTokens: {
    method: 'DELETE',
    path: TOKENS_BASE,
    host: 'tiger',
    auth: 'token',
    summary: 'Revoke the session of the presented token',
    body: { refresh_token: s(false, 512) },
    status: 204,
  },
  convertCookie: {
    method: 'POST',
    path: `${TOKENS_BASE}/convert`,
    host: 'tiger',
    auth: 'none',
    summary: 'Convert a legacy session cookie into a token set',
    status: 200,
  },
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
  neteaseCheck: captchaRoute('platform', '/captcha/netease', 'Exchange a NetEase result for a ticket', {
    validate: s(true, 4096),
    appid: s(),
  }),
  nextdataCheck: captchaRoute('platform', '/captcha/nextdata', 'Exchange a NextData (Shumei) result for a ticket', {
    rid: s(true, 512),
    appid: s(),
  }),
  aliyunCheck: captchaRoute('platform', '/captcha/aliyun', 'Exchange an Aliyun result for a ticket and appid', {
    appKey: s(),
    scene: s(false),
    captchaVerifyParam: s(true, 8192),
  }),
  slideChallenge: captchaRoute('platform', '/captcha/slide/challenge', "A fresh challenge of EduPass's slide puzzle", {
    scene: s(false, 64),
    identity: s(false),
  }),
  slideVerify: captchaRoute('platform', '/captcha/slide/verify', 'Answer a slide puzzle; returns a ticket', {
    id: s(true, 128),
    x: { type: 'number', required: true },
    trajectory: { type: 'any', required: true },
    input: s(false, 16),
  }),
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof routes;
