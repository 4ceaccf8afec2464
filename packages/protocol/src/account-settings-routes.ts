/**
 * A signed-in account's changes, as the account centre makes them: third-party links, username,
 * password, phone, step-up, avatar and deletion. Each route is its own export, as in account-routes.ts;
 * apart from it so the web client's first screen does not carry them.
 */
import { CAPTCHA_HEADERS, captcha, codeSend, ids, password, phone, pid } from './account-route-fields.ts';
import { AVATAR_BODY_MAX, AVATAR_DATA_URL_MAX } from './constants.ts';
import { accountRoute as account, opt, ruled, s } from './route-fields.ts';

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
export const sendPasswordUpdateCodeRoute = /* @__PURE__ */ codeSend('captcha/password/update', 'token');
export const changePasswordByPhoneRoute = /* @__PURE__ */ account('PATCH', 'password/phone', 'token', {
  body: { phone_number: phone, captcha, password },
  status: 204,
});
export const sendBindPhoneCodeRoute = /* @__PURE__ */ codeSend('captcha/phone/bind', 'token');
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
