/**
 * A visitor's way into an account other than signing in: opening one (sign-up by phone or e-mail, a
 * new account from a third-party sign-in: WeChat, QQ) and resetting its password. Each route is its
 * own export, as in account-routes.ts; apart from it so the web client's first screen does not carry them.
 */
import { CAPTCHA_HEADERS, captcha, codeSend, ids, interaction, password, phone, pid } from './account-route-fields.ts';
import { accountRoute as account, opt, ruled, s } from './route-fields.ts';

export const sendRegisterCodeRoute = /* @__PURE__ */ codeSend('captcha/register/phone/with-agreement', 'none');
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
    interaction,
  },
  headers: CAPTCHA_HEADERS,
});
export const checkOauthBindRoute = /* @__PURE__ */ account('GET', 'oauth/third-party', 'none', {
  query: { oauth_ticket: /* @__PURE__ */ s() },
});
export const sendResetCodeRoute = /* @__PURE__ */ codeSend('captcha/password/reset', 'none');
export const checkResetCodeRoute = /* @__PURE__ */ account('POST', 'captcha/password/check', 'none', {
  body: { phone_number: phone, captcha },
});
export const resetPasswordRoute = /* @__PURE__ */ account('PATCH', 'password/reset', 'none', {
  body: { ticket: /* @__PURE__ */ s(), password, confirm_password: /* @__PURE__ */ s() },
  status: 204,
});
