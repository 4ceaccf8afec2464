import {
  bindPhoneRoute,
  checkPhoneBindRoute,
  rebindPhoneRoute,
  sendBindPhoneCodeRoute,
  sendRebindCodeRoute,
} from '@edupass/protocol';
import { type Call, type CaptchaCall, defineCall } from '../call.ts';
import { nothing } from '../shapes.ts';
import { byRules } from '../validate.ts';
import { withToken } from '../with-token.ts';
import type { PhoneCodeInput, PhoneInput } from './sign-up.ts';

/** Sends a code to the phone the signed-in user is to bind. */
export const sendBindPhoneCode: CaptchaCall<PhoneInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  sendBindPhoneCodeRoute,
  nothing,
  byRules,
);

/** Binds a phone number to the signed-in user. */
export const bindPhone: Call<PhoneCodeInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  bindPhoneRoute,
  nothing,
  byRules,
);

/** Resolves when the phone number can be bound; rejects with the reason when not. */
export const checkPhoneBind: Call<PhoneInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  checkPhoneBindRoute,
  nothing,
  byRules,
);

/** Sends a code to the new phone when changing the bound one. */
export const sendRebindCode: CaptchaCall<PhoneInput & { old_phone_number: string }, void> = /* @__PURE__ */ defineCall(
  withToken,
  sendRebindCodeRoute,
  nothing,
  byRules,
);

/** Changes the bound phone number to the one the code went to. */
export const rebindPhone: Call<PhoneCodeInput, void> = /* @__PURE__ */ defineCall(
  withToken,
  rebindPhoneRoute,
  nothing,
  byRules,
);
