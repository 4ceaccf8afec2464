/** Checks run before any request, from the protocol's rules (spec §5). */
import { checkProfile, checkRegister, checks, passwordsEqual, type WireRoute } from '@edupass/protocol';
import type { Check, Values } from './call.ts';

/** The rules the route table gives the route's fields, on each field that is required or present. */
export const byRules: Check = (values: Values, route: WireRoute) => {
  const fields = route.body ?? route.query ?? {};
  for (const [key, field] of Object.entries(fields)) {
    if (field.rule && (field.required || values[key] !== undefined)) {
      const failure = checks[field.rule](values[key]);
      if (failure) return failure;
    }
  }
  return null;
};

/** Password = confirmation, wherever both are sent. */
export const confirmed: Check = (values) =>
  passwordsEqual(values.password, values.confirm_password ?? values.rePassword);

/** The register options check: phone_number, password, captcha, agreement_ids. */
export const registerOptions: Check = checkRegister;

/** Only the settable profile fields, each valid when present. */
export const profileFields: Check = checkProfile;
