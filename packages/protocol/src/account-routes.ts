/**
 * The sign-in, session-token, profile and agreement routes, each its own export: a bundle keeps only
 * the routes it calls (the account SDK's size budget). Kept apart from the aggregate `routes` table so
 * nothing added there can pull every route into such a bundle, and without their summaries, which
 * `routes` adds for the docs. Sign-up and the password reset are in account-opening-routes.ts, the
 * account centre's changes in account-settings-routes.ts, the return from WeChat or QQ in
 * oauth-sign-in-routes.ts: a bundler places a module whole in the chunk of its first user, and these
 * are the web client's first screen's.
 */
import { CAPTCHA_HEADERS, captcha, codeSend, ids, interaction, phone, pid } from './account-route-fields.ts';
import { ACCOUNTS_BASE, accountRoute as account, int, opt, type Ruled, ruled, s } from './route-fields.ts';

export type { Ruled };

export { ACCOUNTS_BASE };
/** The token calls live under the accounts base, where the platform's own SDK builds them (compatibility.md). */
// Written out: a template of ACCOUNTS_BASE is work a bundler keeps even where nothing reads it.
export const TOKENS_BASE = '/tiger/v3/web/accounts/tokens';
/** Where EduPass served the token calls before; still answered (see `routeAliases`) for clients built then. */
export const LEGACY_TOKENS_BASE = '/tiger/v3/web/tokens';

export const sendLoginCodeRoute = /* @__PURE__ */ codeSend('captcha/login/post-process', 'none');
export const loginByPhoneRoute = /* @__PURE__ */ account('POST', 'phone/login/post-process', 'none', {
  body: { phone_number: phone, captcha, pid, agreement_ids: ids, interaction },
});
export const sendSilentLoginCodeRoute = /* @__PURE__ */ codeSend('captcha/login/silence', 'none');
export const loginByPhoneSilentlyRoute = /* @__PURE__ */ account('POST', 'phone/login/silence', 'none', {
  body: { phone_number: phone, captcha, pid, agreement_ids: ids, interaction },
});
export const loginByPasswordRoute = /* @__PURE__ */ account('POST', 'login', 'none', {
  body: { identity: /* @__PURE__ */ s(), password: /* @__PURE__ */ s(), pid, agreement_ids: ids, interaction },
  headers: CAPTCHA_HEADERS,
});
export const loginByPasswordSecureRoute = /* @__PURE__ */ account('POST', 'login/security', 'none', {
  body: { identity: /* @__PURE__ */ s(), password: /* @__PURE__ */ s(), pid, agreement_ids: ids, interaction },
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
export const sendCommonCodeRoute = /* @__PURE__ */ codeSend('captcha/common', 'none');
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
