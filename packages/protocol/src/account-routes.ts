/**
 * The account and token routes, each its own export: a bundle keeps only the routes it calls (the
 * account SDK's size budget). Kept apart from the aggregate `routes` table so nothing added there can
 * pull every route into such a bundle, and without their summaries, which `routes` adds for the docs.
 */
import { CAPTCHA_ID_HEADER, CAPTCHA_TICKET_HEADER } from './captcha.ts';
import { AVATAR_BODY_MAX, AVATAR_DATA_URL_MAX } from './constants.ts';
import { ACCOUNTS_BASE, accountRoute as account, int, opt, type Ruled, ruled, s } from './route-fields.ts';
import type { RouteSpec } from './routes.ts';

export type { Ruled };

const ids = { type: 'integer[]', required: false, maxLength: 64 } as const;
const pid = /* @__PURE__ */ s(64);
const phone = /* @__PURE__ */ ruled('phone_number');
const captcha = /* @__PURE__ */ ruled('captcha');
const password = /* @__PURE__ */ ruled('password');

export { ACCOUNTS_BASE };
/** The token calls live under the accounts base, where the platform's own SDK builds them (compatibility.md). */
// Written out: a template of ACCOUNTS_BASE is work a bundler keeps even where nothing reads it.
export const TOKENS_BASE = '/tiger/v3/web/accounts/tokens';
/** Where EduPass served the token calls before; still answered (see `routeAliases`) for clients built then. */
export const LEGACY_TOKENS_BASE = '/tiger/v3/web/tokens';

const CAPTCHA_HEADERS = [CAPTCHA_TICKET_HEADER, CAPTCHA_ID_HEADER] as const;

/** A code sent to a phone: the number and pid in, a captcha ticket in the headers, nothing back. */
/* @__NO_SIDE_EFFECTS__ */
const codeSend = <const A extends RouteSpec['auth']>(path: string, auth: A) =>
  /* @__PURE__ */ account('POST', path, auth, {
    body: { phone_number: phone, pid },
    headers: CAPTCHA_HEADERS,
    status: 204,
  });

// Each account and token route is its own export so a bundler keeps only the routes a program
// calls (the SDK's size budget); `routes` gathers them for the server and the docs.
export const sendRegisterCodeRoute = codeSend('captcha/register/phone/with-agreement', 'none');
export const registerByPhoneRoute = /* @__PURE__ */ account('POST', 'register/phone/with-agreement', 'none', {
  body: {
    phone_number: phone,
    captcha,
    password,
    agreement_ids: /* @__PURE__ */ ruled('agreement_ids', 'integer[]'),
    pid,
  },
});
export const sendEmailCodeRoute = /* @__PURE__ */ account('POST', 'email/captcha/send', 'none', {
  body: { email: /* @__PURE__ */ ruled('email'), pid: /* @__PURE__ */ opt(/* @__PURE__ */ s(64)) },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const checkEmailCodeRoute = /* @__PURE__ */ account('POST', 'email/captcha/check', 'none', {
  body: { email: /* @__PURE__ */ ruled('email'), captcha },
});
export const registerByEmailRoute = /* @__PURE__ */ account('POST', 'email/register', 'none', {
  body: { captchaTicket: /* @__PURE__ */ s(), password, rePassword: /* @__PURE__ */ s(), pid, agreement_ids: ids },
});
export const sendLoginCodeRoute = codeSend('captcha/login/post-process', 'none');
export const loginByPhoneRoute = /* @__PURE__ */ account('POST', 'phone/login/post-process', 'none', {
  body: { phone_number: phone, captcha, pid, agreement_ids: ids },
});
export const sendSilentLoginCodeRoute = codeSend('captcha/login/silence', 'none');
export const loginByPhoneSilentlyRoute = /* @__PURE__ */ account('POST', 'phone/login/silence', 'none', {
  body: { phone_number: phone, captcha, pid, agreement_ids: ids },
});
export const loginByPasswordRoute = /* @__PURE__ */ account('POST', 'login', 'none', {
  body: { identity: /* @__PURE__ */ s(), password: /* @__PURE__ */ s(), pid, agreement_ids: ids },
  headers: CAPTCHA_HEADERS,
});
export const loginByPasswordSecureRoute = /* @__PURE__ */ account('POST', 'login/security', 'none', {
  body: { identity: /* @__PURE__ */ s(), password: /* @__PURE__ */ s(), pid, agreement_ids: ids },
  headers: CAPTCHA_HEADERS,
});
export const logoutRoute = /* @__PURE__ */ account('POST', 'logout', 'token', {
  body: { refresh_token: /* @__PURE__ */ opt(/* @__PURE__ */ s(512)) },
  status: 204,
});
/**
 * Third-party sign-in starts at `authorize…` (a state cookie, then the provider's page); the code steps
 * must bring the `state` the provider returned, from the same browser. `redirect` is the site page
 * the provider comes back to. Browsers navigating there get a 302; JSON callers get `{url, state}`.
 * A product may accept code steps without `state` (its own front end ran the provider redirect); QQ
 * then takes the page it sent the provider back to as `redirect_uri` (default: PUBLIC_URL).
 */
export const authorizeWechatRoute = /* @__PURE__ */ account('GET', 'oauth/wechat/authorize', 'none', {
  query: { redirect: /* @__PURE__ */ s(2048) },
});
export const authorizeQQRoute = /* @__PURE__ */ account('GET', 'oauth/qq/authorize', 'none', {
  query: { redirect: /* @__PURE__ */ s(2048) },
});
export const loginByWechatRoute = /* @__PURE__ */ account('POST', 'oauth/wechat', 'none', {
  body: {
    code: /* @__PURE__ */ s(),
    pid,
    appid: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    agreement_ids: ids,
    state: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
  },
});
export const loginByQQRoute = /* @__PURE__ */ account('POST', 'oauth/qq', 'none', {
  body: {
    code: /* @__PURE__ */ s(),
    pid,
    agreement_ids: ids,
    state: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    redirect_uri: /* @__PURE__ */ opt(/* @__PURE__ */ s(2048)),
  },
});
export const sendOauthBindCodeRoute = /* @__PURE__ */ account('POST', 'captcha/oauth', 'none', {
  body: { phone_number: phone, oauth_ticket: /* @__PURE__ */ s(), pid: /* @__PURE__ */ opt(/* @__PURE__ */ s()) },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const createOauthUserRoute = /* @__PURE__ */ account('POST', 'oauth/third-party', 'none', {
  body: {
    oauth_ticket: /* @__PURE__ */ s(),
    phone_number: /* @__PURE__ */ opt(phone),
    captcha: /* @__PURE__ */ opt(captcha),
    agreement_ids: ids,
  },
  headers: CAPTCHA_HEADERS,
});
export const checkOauthBindRoute = /* @__PURE__ */ account('GET', 'oauth/third-party', 'none', {
  query: { oauth_ticket: /* @__PURE__ */ s() },
});
export const bindWechatRoute = /* @__PURE__ */ account('POST', 'oauth/wechat/bind', 'token', {
  body: {
    code: /* @__PURE__ */ s(),
    appid: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    state: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
  },
  status: 204,
});
export const unbindWechatRoute = /* @__PURE__ */ account('PATCH', 'oauth/wechat/unbind', 'token', {
  status: 204,
});
export const bindQQRoute = /* @__PURE__ */ account('POST', 'oauth/qq/bind', 'token', {
  body: {
    code: /* @__PURE__ */ s(),
    agreement_ids: ids,
    state: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    redirect_uri: /* @__PURE__ */ opt(/* @__PURE__ */ s(2048)),
  },
  status: 204,
});
export const unbindQQRoute = /* @__PURE__ */ account('PATCH', 'oauth/qq/unbind', 'token', { status: 204 });
export const listOauthsRoute = /* @__PURE__ */ account('GET', 'oauths', 'token');
export const setUsernameRoute = /* @__PURE__ */ account('PATCH', 'username', 'token', {
  body: { username: /* @__PURE__ */ ruled('username') },
  status: 204,
});
export const initPasswordRoute = /* @__PURE__ */ account('PATCH', 'password/setting', 'token', {
  body: { password, confirm_password: /* @__PURE__ */ s() },
  status: 204,
});
export const changePasswordRoute = /* @__PURE__ */ account('PATCH', 'password', 'token', {
  body: { old_password: /* @__PURE__ */ s(), password, confirm_password: /* @__PURE__ */ s() },
  status: 204,
});
export const sendPasswordUpdateCodeRoute = codeSend('captcha/password/update', 'token');
export const changePasswordByPhoneRoute = /* @__PURE__ */ account('PATCH', 'password/phone', 'token', {
  body: { phone_number: phone, captcha, password },
  status: 204,
});
export const sendResetCodeRoute = codeSend('captcha/password/reset', 'none');
export const checkResetCodeRoute = /* @__PURE__ */ account('POST', 'captcha/password/check', 'none', {
  body: { phone_number: phone, captcha },
});
export const resetPasswordRoute = /* @__PURE__ */ account('PATCH', 'password/reset', 'none', {
  body: { ticket: /* @__PURE__ */ s(), password, confirm_password: /* @__PURE__ */ s() },
  status: 204,
});
export const sendBindPhoneCodeRoute = codeSend('captcha/phone/bind', 'token');
export const bindPhoneRoute = /* @__PURE__ */ account('PATCH', 'phone/bind', 'token', {
  body: { phone_number: phone, captcha },
  status: 204,
});
export const checkPhoneBindRoute = /* @__PURE__ */ account('GET', 'phone/check', 'token', {
  query: { phone_number: phone },
  status: 204,
});
export const sendRebindCodeRoute = /* @__PURE__ */ account('POST', 'captcha/phone/change', 'token', {
  body: { phone_number: phone, old_phone_number: phone, pid },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const rebindPhoneRoute = /* @__PURE__ */ account('PATCH', 'phone/change', 'token', {
  body: { phone_number: phone, captcha },
  status: 204,
});
export const sendCommonCodeRoute = codeSend('captcha/common', 'none');
export const checkCommonCodeRoute = /* @__PURE__ */ account('POST', 'captcha/common/check', 'none', {
  body: { phone_number: phone, captcha },
});
export const sendVoiceCodeRoute = /* @__PURE__ */ account('POST', 'voice/captcha/send', 'none', {
  body: {
    phone_number: phone,
    type: /* @__PURE__ */ s(),
    oauth_ticket: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
    pid: /* @__PURE__ */ opt(/* @__PURE__ */ s()),
  },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
/**
 * Step-up: a recent proof that the caller is the account's owner, asked before a change that could
 * take the account over (phone, first password, password by phone, third-party links) or sign its
 * owner out of the other devices. A gated call without one answers E_7; the client proves with the
 * password or a code sent to the account's own phone (or e-mail, when it has no phone) and repeats
 * the call. A sign-in is itself a proof.
 */
export const stepUpStatusRoute = /* @__PURE__ */ account('GET', 'step-up', 'token');
export const stepUpByPasswordRoute = /* @__PURE__ */ account('POST', 'step-up/password', 'token', {
  body: { password: /* @__PURE__ */ s() },
  status: 204,
});
export const sendStepUpCodeRoute = /* @__PURE__ */ account('POST', 'step-up/code/send', 'token', {
  body: { pid },
  headers: CAPTCHA_HEADERS,
  status: 204,
});
export const stepUpByCodeRoute = /* @__PURE__ */ account('POST', 'step-up/code', 'token', {
  body: { captcha },
  status: 204,
});
/**
 * Proves the session with a round trip to WeChat or QQ (an account whose only way in is a third-party
 * identity): the code and state of the provider's return, begun at `oauth/{name}/authorize` in the
 * same browser (under `oauth/`, where the state cookie is sent); the identity must be the one linked
 * to the account.
 */
export const stepUpByOauthRoute = /* @__PURE__ */ account('POST', 'oauth/step-up', 'token', {
  body: {
    provider: /* @__PURE__ */ s(),
    code: /* @__PURE__ */ s(),
    state: /* @__PURE__ */ s(),
  },
  status: 204,
});
/** Ends every session of the user but the caller's (offered after a change of phone or links); needs a recent proof (step-up). */
export const endOtherSessionsRoute = /* @__PURE__ */ account('POST', 'sessions/end-others', 'token', { status: 204 });
export const getProfileRoute = /* @__PURE__ */ account('GET', 'profile', 'token');
export const updateProfileRoute = /* @__PURE__ */ account('PATCH', 'info', 'token', {
  body: {
    nickname: /* @__PURE__ */ opt(/* @__PURE__ */ ruled('nickname')),
    avatar_url: /* @__PURE__ */ opt(/* @__PURE__ */ s(1024)),
    fullname: /* @__PURE__ */ opt(/* @__PURE__ */ ruled('fullname')),
    birthday: /* @__PURE__ */ opt(/* @__PURE__ */ ruled('birthday', 'integer')),
    sex: /* @__PURE__ */ opt(/* @__PURE__ */ ruled('sex', 'integer')),
    qq: /* @__PURE__ */ opt(/* @__PURE__ */ ruled('qq')),
    description: /* @__PURE__ */ opt(/* @__PURE__ */ ruled('description')),
    grade: /* @__PURE__ */ opt(/* @__PURE__ */ int()),
  },
  status: 204,
});
/** A new profile picture: a cropped square image as a data URL (AVATAR in constants.ts). */
export const uploadAvatarRoute = /* @__PURE__ */ account('POST', 'avatar', 'token', {
  body: { image: /* @__PURE__ */ s(AVATAR_DATA_URL_MAX) },
  bodyLimit: AVATAR_BODY_MAX,
});
/**
 * Deletes the signed-in user's account and everything naming it; needs a recent proof (step-up). With a
 * grace period the account is frozen at once and erased when it ends; signing in meanwhile answers E_16
 * with a `deletion_ticket`, which `keepAccount` spends to keep the account and finish that sign-in.
 */
export const deleteAccountRoute = /* @__PURE__ */ account('DELETE', 'account', 'token', { status: 204 });
export const keepAccountRoute = /* @__PURE__ */ account('POST', 'account/deletion/cancel', 'none', {
  body: { deletion_ticket: /* @__PURE__ */ s() },
});

/** Added to the E_16 answer of a sign-in to an account waiting to be deleted. */
export interface DeletionScheduled {
  /** Single use: `keepAccount` with it cancels the deletion and signs in. */
  deletion_ticket: string;
  /** When the account will be erased, unix ms. */
  erase_at: number;
}
export const getPrivacyRoute = /* @__PURE__ */ account('GET', 'privacy', 'token');
export const getGradeListRoute = /* @__PURE__ */ account('GET', 'grade-list', 'none');
export const listAgreementsRoute = /* @__PURE__ */ account('GET', 'agreements', 'none');
/** A published agreement's text by code, at `version` (default: the one in effect). */
export const readAgreementRoute = /* @__PURE__ */ account('GET', 'agreements/text', 'none', {
  query: {
    code: /* @__PURE__ */ s(64),
    version: /* @__PURE__ */ opt(/* @__PURE__ */ s(10)),
    lang: /* @__PURE__ */ opt(/* @__PURE__ */ s(16)),
  },
});
export const listAgreementsToSignRoute = /* @__PURE__ */ account('GET', 'agreements/need-sign', 'optional');
export const signAgreementsRoute = /* @__PURE__ */ account('POST', 'agreements/sign', 'token', {
  body: { agreement_ids: /* @__PURE__ */ ruled('agreement_ids', 'integer[]'), pid },
  status: 204,
});
export const listLatestProtocolsRoute = /* @__PURE__ */ account('POST', 'protocol/list', 'none', {
  body: { codeList: { type: 'string[]', required: true, maxLength: 50 }, pid },
});
// The token calls, under TOKENS_BASE.
export const refreshTokensRoute = /* @__PURE__ */ account('PUT', 'tokens/refresh', 'none', {
  body: { refresh_token: /* @__PURE__ */ s(512) },
});
export const deleteTokensRoute = /* @__PURE__ */ account('DELETE', 'tokens', 'token', {
  body: { refresh_token: /* @__PURE__ */ opt(/* @__PURE__ */ s(512)) },
  status: 204,
});
export const convertCookieRoute = /* @__PURE__ */ account('POST', 'tokens/convert', 'none');
