/**
 * The signed-in devices of an account: the list of its live sessions, ending one of them, and a
 * password change that keeps the caller's session (the SDK's `@edupass/account/sessions` entry). Each
 * route is its own export, as in account-routes.ts, so a bundle keeps only the calls it makes.
 *
 * The older password routes (`changePassword`, `changePasswordByPhone`) end every session, the
 * caller's included, as clients built for them expect; the `keeping-session` ones keep the caller
 * signed in and end the others only when `end_other_sessions` says so, in the same transaction.
 */

import { captcha, password, phone } from './account-route-fields.ts';
import type { Answer } from './answer-schema.ts';
import { accountRoute as route, s } from './route-fields.ts';
import type { sessionSummaryAnswer } from './session-answers.ts';

const endOthers = { type: 'boolean', required: true } as const;

/** The caller's live sessions, the caller's own first. */
export const listSessionsRoute = /* @__PURE__ */ route('GET', 'sessions', 'token');
/**
 * Ends one of the caller's sessions at once (its tokens stop working); another user's is not found.
 * Another device's needs a recent proof (step-up, E_7 without one); the caller's own is a sign-out.
 */
export const endSessionRoute = /* @__PURE__ */ route('DELETE', 'sessions/:id', 'token', {
  params: { id: /* @__PURE__ */ s(64) },
  status: 204,
});
/** Changes the password with the current one; this session stays signed in. */
export const changePasswordKeepingSessionRoute = /* @__PURE__ */ route('PATCH', 'password/keeping-session', 'token', {
  body: {
    old_password: /* @__PURE__ */ s(),
    password,
    confirm_password: /* @__PURE__ */ s(),
    end_other_sessions: endOthers,
  },
  status: 204,
});
/** Changes the password with a code to the bound phone; this session stays signed in. */
export const changePasswordByPhoneKeepingSessionRoute = /* @__PURE__ */ route(
  'PATCH',
  'password/phone/keeping-session',
  'token',
  {
    body: { phone_number: phone, captcha, password, end_other_sessions: endOthers },
    status: 204,
  },
);

/** A signed-in device: `id` names it for `endSession`; `last_active_at` is its last token refresh (ms). */
export type SessionSummary = Answer<typeof sessionSummaryAnswer>;
