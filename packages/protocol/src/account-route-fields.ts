/**
 * The fields and the shape of a code-sending route that the routes under the accounts base share:
 * sign-in (account-routes.ts), sign-up and password reset (account-opening-routes.ts), the account
 * centre's changes (account-settings-routes.ts), e-mail, sessions and the second factor. The account
 * routes are three modules so that a bundle's entry holds only the routes of its first screen: a
 * bundler places a module whole, with every route any of the bundle's chunks calls.
 */
import { CAPTCHA_ID_HEADER, CAPTCHA_TICKET_HEADER } from './captcha.ts';
import { accountRoute, ruled, s } from './route-fields.ts';
import type { RouteSpec } from './routes.ts';

export const ids = { type: 'integer[]', required: false, maxLength: 64 } as const;
export const pid = /* @__PURE__ */ s(64);
export const phone = /* @__PURE__ */ ruled('phone_number');
export const captcha = /* @__PURE__ */ ruled('captcha');
export const password = /* @__PURE__ */ ruled('password');
/**
 * The product sign-in (an OpenID Connect interaction's uid) a sign-in is made for, when the browser
 * waits on one of a first-party product: completed with the sign-in where nothing more is asked of
 * the user, the answer's `redirect_to` then says where the browser goes on to
 * (docs/sign-in-for-apps.md).
 */
export const interaction = { type: 'string', required: false, maxLength: 64 } as const;

export const CAPTCHA_HEADERS = [CAPTCHA_TICKET_HEADER, CAPTCHA_ID_HEADER] as const;

/** A code sent to a phone: the number and pid in, a captcha ticket in the headers, nothing back. */
/* @__NO_SIDE_EFFECTS__ */
export const codeSend = <const A extends RouteSpec['auth']>(path: string, auth: A) =>
  /* @__PURE__ */ accountRoute('POST', path, auth, {
    body: { phone_number: phone, pid },
    headers: CAPTCHA_HEADERS,
    status: 204,
  });
