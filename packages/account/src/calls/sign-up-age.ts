import { type LoginResult, registerByEmailWithAgeRoute, registerByPhoneWithAgeRoute } from '@edupass/protocol';
import { anonymous, type Call, defineCall } from '../call.ts';
import { signIn } from '../shapes.ts';
import { byRules, confirmed, registerOptions } from '../validate.ts';
import type { AgreementInput, PhoneCodeInput, RegisterByEmailInput } from './sign-up.ts';

export interface AgeInput {
  /** `YYYY-MM`, the answer to the sign-up's age question; under 14 a guardian's consent is asked. */
  birth_year_month: string;
}

/** `registerByPhone` with the age question's answer. */
export const registerByPhoneWithAge: Call<
  PhoneCodeInput & AgreementInput & AgeInput & { password: string },
  LoginResult
> = /* @__PURE__ */ defineCall(anonymous, registerByPhoneWithAgeRoute, signIn, registerOptions);

/** `registerByEmail` with the age question's answer. */
export const registerByEmailWithAge: Call<RegisterByEmailInput & AgeInput, LoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  registerByEmailWithAgeRoute,
  signIn,
  byRules,
  confirmed,
);
