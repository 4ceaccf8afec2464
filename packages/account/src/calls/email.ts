import {
  bindEmailRoute,
  checkEmailResetCodeRoute,
  type LoginResult,
  loginByEmailRoute,
  sendEmailBindCodeRoute,
  sendEmailLoginCodeRoute,
  sendEmailResetCodeRoute,
  type TicketResult,
} from '@edupass/protocol';
import { anonymous, type Call, type CaptchaCall, defineCall } from '../call.ts';
import { nothing, object, signIn } from '../shapes.ts';
import { byRules } from '../validate.ts';
import { withToken } from '../with-token.ts';
import type { ProductSignInInput } from './sign-in.ts';
import type { AgreementInput, EmailInput } from './sign-up.ts';

export interface EmailCodeInput extends EmailInput {
  /** The 6-digit code. */
  captcha: string;
}

/**
 * Sends a password-reset code to an account's e-mail. It resolves alike whether or not an account
 * has the address (only one that has receives a code): a wrong address shows at the check, as a
 * wrong code.
 */
export const sendEmailResetCode: CaptchaCall<EmailInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendEmailResetCodeRoute,
  nothing,
  byRules,
);

/** Checks an e-mail reset code; its ticket resets the password with `resetPassword` (the main entry). */
export const checkEmailResetCode: Call<EmailCodeInput, TicketResult> = /* @__PURE__ */ defineCall(
  anonymous,
  checkEmailResetCodeRoute,
  object,
  byRules,
);

/** Sends a sign-in code to an account's e-mail; resolves alike whether or not an account has it. */
export const sendEmailLoginCode: CaptchaCall<EmailInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendEmailLoginCodeRoute,
  nothing,
  byRules,
);

/** Signs in with e-mail and code (a second factor, where the account has one, rejects with its challenge). */
export const loginByEmail: Call<EmailCodeInput & AgreementInput & ProductSignInInput, LoginResult> =
  /* @__PURE__ */ defineCall(anonymous, loginByEmailRoute, signIn, byRules);

/** Sends a code to the address the signed-in user adds or changes to (step-up first: STEP_UP_REQUIRED). */
export const sendEmailBindCode: CaptchaCall<EmailInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  sendEmailBindCodeRoute,
  nothing,
  byRules,
);

/** Adds or changes the account's e-mail with that code. */
export const bindEmail: Call<EmailCodeInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  bindEmailRoute,
  nothing,
  byRules,
);
