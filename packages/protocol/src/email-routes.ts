/**
 * An e-mail address as a first-class way into an account, as a phone is: a password reset by a code
 * sent to the account's e-mail, sign-in by an e-mail code, and adding or changing the address (a
 * code to the new address, after step-up). Each route is its own export, as in account-routes.ts, so a
 * bundle keeps only the calls it makes (the SDK's `@edupass/account/email` entry).
 *
 * The anonymous sends answer 204 whether or not an account has the address, and send to it only when
 * one does: an unknown address then reads as a wrong code at the check, never as "not registered".
 */
import { captcha, CAPTCHA_HEADERS as headers, ids, interaction, pid } from './account-route-fields.ts';
import { accountRoute as route } from './route-fields.ts';
import type { RouteSpec } from './routes.ts';

const email = { type: 'string', required: true, maxLength: 256, rule: 'email' } as const;

/** A code to an e-mail address: the address and pid in, a captcha ticket in the headers, nothing back. */
/* @__NO_SIDE_EFFECTS__ */
const emailCodeSend = <const A extends RouteSpec['auth']>(path: string, auth: A) =>
  /* @__PURE__ */ route('POST', path, auth, { body: { email, pid }, headers, status: 204 });

/** A reset code to the account's e-mail; its check answers the ticket `password/reset` takes. */
export const sendEmailResetCodeRoute = emailCodeSend('email/captcha/password/reset', 'none');
export const checkEmailResetCodeRoute = /* @__PURE__ */ route('POST', 'email/captcha/password/check', 'none', {
  body: { email, captcha },
});
/** Sign-in by a code sent to the account's e-mail; the second factor and agreements apply as by SMS. */
export const sendEmailLoginCodeRoute = emailCodeSend('email/captcha/login', 'none');
export const loginByEmailRoute = /* @__PURE__ */ route('POST', 'email/login', 'none', {
  body: { email, captcha, pid, agreement_ids: ids, interaction },
});
/** Adds or changes the account's e-mail: a code to the new address, after step-up. */
export const sendEmailBindCodeRoute = emailCodeSend('email/captcha/bind', 'token');
export const bindEmailRoute = /* @__PURE__ */ route('PATCH', 'email/bind', 'token', {
  body: { email, captcha },
  status: 204,
});
