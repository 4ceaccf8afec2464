import {
  type LoginResult,
  loginByPasswordRoute,
  loginByPasswordSecureRoute,
  loginByPhoneRoute,
  loginByPhoneSilentlyRoute,
  logoutRoute,
  sendLoginCodeRoute,
  sendSilentLoginCodeRoute,
} from '@edupass/protocol';
import { anonymous, type Call, type CaptchaCall, type CaptchaProof, defineCall, type PlainCall } from '../call.ts';
import { nothing, signIn, signOut } from '../shapes.ts';
import { byRules } from '../validate.ts';
import { withToken } from '../with-token.ts';
import type { AgreementInput, PhoneCodeInput, PhoneInput } from './sign-up.ts';

/** A sign-in made for a product's sign-in the browser waits on. */
export interface ProductSignInInput {
  /**
   * The uid of a first-party product's sign-in (an OpenID Connect interaction) this browser waits on:
   * the server completes it with the sign-in when nothing more is asked of the user, and the answer's
   * `redirect_to` is where the browser goes on to (without it, complete the interaction as after any
   * sign-in).
   */
  interaction?: string;
}

/** Sends a sign-in code by SMS. */
export const sendLoginCode: CaptchaCall<PhoneInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendLoginCodeRoute,
  nothing,
  byRules,
);

/** Signs in with phone and SMS code. */
export const loginByPhone: Call<PhoneCodeInput & AgreementInput & ProductSignInInput, LoginResult> =
  /* @__PURE__ */ defineCall(anonymous, loginByPhoneRoute, signIn, byRules);

/** Sends a code for sign-in-or-sign-up. */
export const sendSilentLoginCode: CaptchaCall<PhoneInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendSilentLoginCodeRoute,
  nothing,
  byRules,
);

/** Signs in with phone and code, creating the account on first use (`is_first_login` tells). */
export const loginByPhoneSilently: Call<PhoneCodeInput & AgreementInput & ProductSignInInput, LoginResult> =
  /* @__PURE__ */ defineCall(anonymous, loginByPhoneSilentlyRoute, signIn, byRules);

export interface PasswordLoginInput extends AgreementInput, ProductSignInInput {
  /** Phone number, username or e-mail. */
  identity: string;
  password: string;
}

/** Signs in with phone, username or e-mail and password; with a passed captcha where the server asks for one. */
export const loginByPassword: CaptchaCall<PasswordLoginInput, LoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  loginByPasswordRoute,
  signIn,
);

/** Password sign-in carrying a passed captcha (asked for after failed attempts). */
export const loginByPasswordSecure: (
  client: Parameters<typeof loginByPassword>[0],
  input: PasswordLoginInput,
  captcha: CaptchaProof,
) => Promise<LoginResult> = /* @__PURE__ */ defineCall(anonymous, loginByPasswordSecureRoute, signIn);

/** Signs out: the server ends the session, then the tokens are cleared. */
export const logout: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, logoutRoute, signOut);
