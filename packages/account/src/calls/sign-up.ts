import {
  checkEmailCodeRoute,
  type LoginResult,
  registerByEmailRoute,
  registerByPhoneRoute,
  sendEmailCodeRoute,
  sendRegisterCodeRoute,
  type TicketResult,
} from '@edupass/protocol';
import { anonymous, type Call, type CaptchaCall, defineCall } from '../call.ts';
import { nothing, object, signIn } from '../shapes.ts';
import { byRules, confirmed, registerOptions } from '../validate.ts';

export interface PhoneInput {
  phone_number: string;
}

export interface PhoneCodeInput extends PhoneInput {
  /** The 6-digit code. */
  captcha: string;
}

export interface AgreementInput {
  /** @default [-1] (no agreement chosen) */
  agreement_ids?: readonly number[];
}

/** Sends a sign-up code by SMS. */
export const sendRegisterCode: CaptchaCall<PhoneInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendRegisterCodeRoute,
  nothing,
  byRules,
);

/** Signs up with phone, SMS code and password, and signs in. */
export const registerByPhone: Call<PhoneCodeInput & AgreementInput & { password: string }, LoginResult> =
  /* @__PURE__ */ defineCall(anonymous, registerByPhoneRoute, signIn, registerOptions);

export interface EmailInput {
  email: string;
}

/** Sends a sign-up code by e-mail. */
export const sendEmailCode: CaptchaCall<EmailInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendEmailCodeRoute,
  nothing,
  byRules,
);

/** Checks an e-mail code; its ticket signs up with `registerByEmail`. */
export const checkEmailCode: Call<EmailInput & { captcha: string }, TicketResult> = /* @__PURE__ */ defineCall(
  anonymous,
  checkEmailCodeRoute,
  object,
  byRules,
);

export interface RegisterByEmailInput extends AgreementInput {
  /** The ticket of `checkEmailCode`. */
  captchaTicket: string;
  password: string;
  rePassword: string;
}

/** Signs up with an e-mail ticket and password, and signs in. */
export const registerByEmail: Call<RegisterByEmailInput, LoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  registerByEmailRoute,
  signIn,
  byRules,
  confirmed,
);
