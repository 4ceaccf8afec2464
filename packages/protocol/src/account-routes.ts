/**
 * The account and token routes, each its own export: a bundle keeps only the routes it calls (the
 * account SDK's size budget). Kept apart from the aggregate `routes` table so nothing added there can
 * pull every route into such a bundle, and without their summaries, which `routes` adds for the docs.
 */
import { CAPTCHA_ID_HEADER, CAPTCHA_TICKET_HEADER } from './captcha.ts';
import { AVATAR_BODY_MAX, AVATAR_DATA_URL_MAX } from './constants.ts';
import type { FieldSpec, FieldType, Method, RouteSpec, RuleName, WireRoute } from './routes.ts';

// The field helpers live here, not in route-fields.ts: esbuild honours @__NO_SIDE_EFFECTS__ only within
// a module, and a call it takes for a side effect keeps that route in every bundle.
/* @__NO_SIDE_EFFECTS__ */
const s = (maxLength = 256) => ({ type: 'string', required: true, maxLength }) as const;
/* @__NO_SIDE_EFFECTS__ */
const int = () => ({ type: 'integer', required: true }) as const;
/* @__NO_SIDE_EFFECTS__ */
const opt = <F extends FieldSpec>(field: F) => ({ ...field, required: false }) as const;
export interface Ruled<R extends RuleName, T extends FieldType> {
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

export const ACCOUNTS_BASE = '/tiger/v3/web/accounts';
/** The token calls live under the accounts base, where the platform's own SDK builds them (compatibility.md). */
export const TOKENS_BASE = `${ACCOUNTS_BASE}/tokens`;
/** Where EduPass served the token calls before; still answered (see `routeAliases`) for clients built then. */
export const LEGACY_TOKENS_BASE = '/tiger/v3/web/tokens';

/* @__NO_SIDE_EFFECTS__ */
const account = <const A extends RouteSpec['auth'], const E extends Partial<WireRoute> = Record<never, never>>(
  method: Method,
  path: string,
  auth: A,
  extra: E = {} as E,
) =>
  ({ method, path: `${ACCOUNTS_BASE}/${path}`, host: 'tiger', auth, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: A; status: 200 },
    keyof E
  > &
    E;

const CAPTCHA_HEADERS = [CAPTCHA_TICKET_HEADER, CAPTCHA_ID_HEADER] as const;

/** A code sent to a phone: the number and pid in, a captcha ticket in the headers, nothing back. */
/* @__NO_SIDE_EFFECTS__ */
const codeSend = <const A extends RouteSpec['auth']>(path: string, auth: A) =>
  account('POST', path, auth, { body: { phone_number: phone, pid }, headers: CAPTCHA_HEADERS, status: 204 });

// Each account and token route is its own export so a bundler keeps only the routes a program
// calls (the SDK's size budget); `routes` gathers them for the server and the docs.
export const sendRegisterCodeRoute = codeSend('captcha/register/phone/with-agreement', 'none');
export const registerByPhoneRoute = account('POST', 'register/phone/with-agreement', 'none', {
  body: { phone_number: phone, captcha, password, agreement_ids: ruled('agreement_ids', 'integer[]'), pid },
});
export const sendEmailCodeRoute = account('POST', 'email/captcha/send', 'none', {
  body: { email: ruled('email'), pid: opt(s(64)) },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const checkEmailCodeRoute = account('POST', 'email/captcha/check', 'none', {
  body: { email: ruled('email'), captcha },
});
export const registerByEmailRoute = account('POST', 'email/register', 'none', {
  body: { captchaTicket: s(), password, rePassword: s(), pid },
});
export const sendLoginCodeRoute = codeSend('captcha/login/post-process', 'none');
export const loginByPhoneRoute = account('POST', 'phone/login/post-process', 'none', {
  body: { phone_number: phone, captcha, pid, agreement_ids: ids },
});
export const sendSilentLoginCodeRoute = codeSend('captcha/login/silence', 'none');
export const loginByPhoneSilentlyRoute = account('POST', 'phone/login/silence', 'none', {
  body: { phone_number: phone, captcha, pid, agreement_ids: ids },
});
export const loginByPasswordRoute = account('POST', 'login', 'none', {
  body: { identity: s(), password: s(), pid, agreement_ids: ids },
  headers: CAPTCHA_HEADERS,
});
export const loginByPasswordSecureRoute = account('POST', 'login/security', 'none', {
  body: { identity: s(), password: s(), pid, agreement_ids: ids },
  headers: CAPTCHA_HEADERS,
});
export const logoutRoute = account('POST', 'logout', 'token', {
  body: { refresh_token: opt(s(512)) },
  status: 204,
});
/**
 * Third-party sign-in starts at `authorize…` (a state cookie, then the provider's page); the code steps
 * must bring the `state` the provider returned, from the same browser. `redirect` is the site page
 * the provider comes back to. Browsers navigating there get a 302; JSON callers get `{url, state}`.
 * A product may accept code steps without `state` (its own front end ran the provider redirect); QQ
 * then takes the page it sent the provider back to as `redirect_uri` (default: PUBLIC_URL).
 */
export const authorizeWechatRoute = account('GET', 'oauth/wechat/authorize', 'none', {
  query: { redirect: s(2048) },
});
export const authorizeQQRoute = account('GET', 'oauth/qq/authorize', 'none', {
  query: { redirect: s(2048) },
});
export const loginByWechatRoute = account('POST', 'oauth/wechat', 'none', {
  body: { code: s(), pid, appid: opt(s()), agreement_ids: ids, state: opt(s()) },
});
export const loginByQQRoute = account('POST', 'oauth/qq', 'none', {
  body: { code: s(), pid, agreement_ids: ids, state: opt(s()), redirect_uri: opt(s(2048)) },
});
export const sendOauthBindCodeRoute = account('POST', 'captcha/oauth', 'none', {
  body: { phone_number: phone, oauth_ticket: s(), pid: opt(s()) },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const createOauthUserRoute = account('POST', 'oauth/third-party', 'none', {
  body: { oauth_ticket: s(), phone_number: opt(phone), captcha: opt(captcha), agreement_ids: ids },
  headers: CAPTCHA_HEADERS,
});
export const checkOauthBindRoute = account('GET', 'oauth/third-party', 'none', {
  query: { oauth_ticket: s() },
});
export const bindWechatRoute = account('POST', 'oauth/wechat/bind', 'token', {
  body: { code: s(), appid: opt(s()), state: opt(s()) },
  status: 204,
});
export const unbindWechatRoute = account('PATCH', 'oauth/wechat/unbind', 'token', {
  status: 204,
});
export const bindQQRoute = account('POST', 'oauth/qq/bind', 'token', {
  body: { code: s(), agreement_ids: ids, state: opt(s()), redirect_uri: opt(s(2048)) },
  status: 204,
});
export const unbindQQRoute = account('PATCH', 'oauth/qq/unbind', 'token', { status: 204 });
export const listOauthsRoute = account('GET', 'oauths', 'token');
export const setUsernameRoute = account('PATCH', 'username', 'token', {
  body: { username: ruled('username') },
  status: 204,
});
export const initPasswordRoute = account('PATCH', 'password/setting', 'token', {
  body: { password, confirm_password: s() },
  status: 204,
});
export const changePasswordRoute = account('PATCH', 'password', 'token', {
  body: { old_password: s(), password, confirm_password: s() },
  status: 204,
});
export const sendPasswordUpdateCodeRoute = codeSend('captcha/password/update', 'token');
export const changePasswordByPhoneRoute = account('PATCH', 'password/phone', 'token', {
  body: { phone_number: phone, captcha, password },
  status: 204,
});
export const sendResetCodeRoute = codeSend('captcha/password/reset', 'none');
export const checkResetCodeRoute = account('POST', 'captcha/password/check', 'none', {
  body: { phone_number: phone, captcha },
});
export const resetPasswordRoute = account('PATCH', 'password/reset', 'none', {
  body: { ticket: s(), password, confirm_password: s() },
  status: 204,
});
export const sendBindPhoneCodeRoute = codeSend('captcha/phone/bind', 'token');
export const bindPhoneRoute = account('PATCH', 'phone/bind', 'token', {
  body: { phone_number: phone, captcha },
  status: 204,
});
export const checkPhoneBindRoute = account('GET', 'phone/check', 'token', {
  query: { phone_number: phone },
  status: 204,
});
export const sendRebindCodeRoute = account('POST', 'captcha/phone/change', 'token', {
  body: { phone_number: phone, old_phone_number: phone, pid },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const rebindPhoneRoute = account('PATCH', 'phone/change', 'token', {
  body: { phone_number: phone, captcha },
  status: 204,
});
export const sendCommonCodeRoute = codeSend('captcha/common', 'none');
export const checkCommonCodeRoute = account('POST', 'captcha/common/check', 'none', {
  body: { phone_number: phone, captcha },
});
export const sendVoiceCodeRoute = account('POST', 'voice/captcha/send', 'none', {
  body: { phone_number: phone, type: s(), oauth_ticket: opt(s()), pid: opt(s()) },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
/**
 * Step-up: a recent proof that the caller is the account's owner, asked before a change that could
 * take the account over (phone, first password, password by phone, third-party links). A gated call
 * without one answers E_7; the client proves with the password or a code sent to the account's own
 * phone (or e-mail, when it has no phone) and repeats the call. A sign-in is itself a proof.
 */
export const stepUpStatusRoute = account('GET', 'step-up', 'token');
export const stepUpByPasswordRoute = account('POST', 'step-up/password', 'token', {
  body: { password: s() },
  status: 204,
});
export const sendStepUpCodeRoute = account('POST', 'step-up/code/send', 'token', {
  body: { pid },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const stepUpByCodeRoute = account('POST', 'step-up/code', 'token', {
  body: { captcha },
  status: 204,
});
/** Ends every session of the user but the caller's (offered after a change of phone or links). */
export const endOtherSessionsRoute = account('POST', 'sessions/end-others', 'token', { status: 204 });
export const getProfileRoute = account('GET', 'profile', 'token');
export const updateProfileRoute = account('PATCH', 'info', 'token', {
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
/** A new profile picture: a cropped square image as a data URL (AVATAR in constants.ts). */
export const uploadAvatarRoute = account('POST', 'avatar', 'token', {
  body: { image: s(AVATAR_DATA_URL_MAX) },
  bodyLimit: AVATAR_BODY_MAX,
});
/** Deletes the signed-in user's account and everything naming it; needs a recent proof (step-up). */
export const deleteAccountRoute = account('DELETE', 'account', 'token', { status: 204 });
export const getPrivacyRoute = account('GET', 'privacy', 'token');
export const getGradeListRoute = account('GET', 'grade-list', 'none');
export const listAgreementsRoute = account('GET', 'agreements', 'none');
/** A published agreement's text by code, at `version` (default: the one in effect). */
export const readAgreementRoute = account('GET', 'agreements/text', 'none', {
  query: { code: s(64), version: opt(s(10)) },
});
export const listAgreementsToSignRoute = account('GET', 'agreements/need-sign', 'optional');
export const signAgreementsRoute = account('POST', 'agreements/sign', 'token', {
  body: { agreement_ids: ruled('agreement_ids', 'integer[]'), pid },
  status: 204,
});
export const listLatestProtocolsRoute = account('POST', 'protocol/list', 'none', {
  body: { codeList: { type: 'string[]', required: true, maxLength: 50 }, pid },
});
// The token calls, under TOKENS_BASE.
export const refreshTokensRoute = account('PUT', 'tokens/refresh', 'none', { body: { refresh_token: s(512) } });
export const deleteTokensRoute = account('DELETE', 'tokens', 'token', {
  body: { refresh_token: opt(s(512)) },
  status: 204,
});
export const convertCookieRoute = account('POST', 'tokens/convert', 'none');
