import {
  changePasswordByPhoneRoute,
  changePasswordRoute,
  checkResetCodeRoute,
  initPasswordRoute,
  resetPasswordRoute,
  sendPasswordUpdateCodeRoute,
  sendResetCodeRoute,
  setUsernameRoute,
  type TicketResult,
} from '@edupass/protocol';
import { anonymous, type Call, type CaptchaCall, defineCall } from '../call.ts';
import { nothing, object, signOut } from '../shapes.ts';
import { byRules, confirmed } from '../validate.ts';
import { withToken } from '../with-token.ts';
import type { PhoneCodeInput, PhoneInput } from './sign-up.ts';

/** Sets the username; it can be set once. */
export const setUsername: Call<{ username: string }, void> = /* @__PURE__ */ defineCall(
  withToken,
  setUsernameRoute,
  nothing,
  byRules,
);

export interface NewPasswordInput {
  password: string;
  confirm_password: string;
}

/** Sets the first password of an account that has none. */
export const initPassword: Call<NewPasswordInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  initPasswordRoute,
  nothing,
  byRules,
  confirmed,
);

/** Changes the password with the old one. The server ends the session, so the tokens are cleared. */
export const changePassword: Call<NewPasswordInput & { old_password: string }, void> = /* @__PURE__ */ defineCall(
  withToken,
  changePasswordRoute,
  signOut,
  byRules,
  confirmed,
);

/** Sends a code for changing the password to the bound phone. */
export const sendPasswordUpdateCode: CaptchaCall<PhoneInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  sendPasswordUpdateCodeRoute,
  nothing,
  byRules,
);

/** Changes the password with an SMS code; the tokens are cleared. */
export const changePasswordByPhone: Call<PhoneCodeInput & { password: string }, void> = /* @__PURE__ */ defineCall(
  withToken,
  changePasswordByPhoneRoute,
  signOut,
  byRules,
);

/** Sends a code for resetting a forgotten password. */
export const sendResetCode: CaptchaCall<PhoneInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendResetCodeRoute,
  nothing,
  byRules,
);

/** Checks a reset code; its ticket resets the password with `resetPassword`. */
export const checkResetCode: Call<PhoneCodeInput, TicketResult> = /* @__PURE__ */ defineCall(
  anonymous,
  checkResetCodeRoute,
  object,
  byRules,
);

/** Resets the password with the ticket of `checkResetCode`. */
export const resetPassword: Call<NewPasswordInput & { ticket: string }, void> = /* @__PURE__ */ defineCall(
  anonymous,
  resetPasswordRoute,
  nothing,
  byRules,
  confirmed,
);
