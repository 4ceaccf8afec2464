import {
  changePasswordByPhoneKeepingSessionRoute,
  changePasswordKeepingSessionRoute,
  endSessionRoute,
  listSessionsRoute,
  type SessionSummary,
} from '@edupass/protocol';
import { type Call, defineCall, type PlainCall } from '../call.ts';
import type { AccountClient } from '../client.ts';
import { array, nothing } from '../shapes.ts';
import { byRules, confirmed } from '../validate.ts';
import { withToken } from '../with-token.ts';
import type { NewPasswordInput } from './password.ts';
import type { PhoneCodeInput } from './sign-up.ts';

export type { SessionSummary };

/** The account's signed-in devices (live sessions), this one first with `current: true`. */
export const listSessions: PlainCall<SessionSummary[]> = /* @__PURE__ */ defineCall(
  withToken,
  listSessionsRoute,
  array,
);

/** Signs one device out at once (`id` from `listSessions`). To sign this one out, use `logout`. */
export const endSession = (client: AccountClient, input: { id: string }): Promise<void> =>
  defineCall<Record<string, never>, void>(
    withToken,
    { ...endSessionRoute, path: endSessionRoute.path.replace(':id', encodeURIComponent(input.id)) },
    nothing,
  )(client);

/** Whether the password change also signs out every other device (in the same step). */
export interface OtherSessionsChoice {
  end_other_sessions: boolean;
}

/** Changes the password with the current one; this device stays signed in (its tokens are kept). */
export const changePasswordKeepingSession: Call<
  NewPasswordInput & { old_password: string } & OtherSessionsChoice,
  void
> = /* @__PURE__ */ defineCall(withToken, changePasswordKeepingSessionRoute, nothing, byRules, confirmed);

/** Changes the password with a code to the bound phone; this device stays signed in. */
export const changePasswordByPhoneKeepingSession: Call<
  PhoneCodeInput & { password: string } & OtherSessionsChoice,
  void
> = /* @__PURE__ */ defineCall(withToken, changePasswordByPhoneKeepingSessionRoute, nothing, byRules);
