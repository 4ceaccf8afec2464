/**
 * Phone and e-mail sign-up with the age question's answer (`birth_year_month`, `YYYY-MM`; under 14 a
 * guardian's consent is asked: docs/education.md). The server parses sign-ups with these; the account
 * SDK's main entry keeps the plain routes (its size budget) and `@edupass/account/sign-up-age` sends these.
 */
import { registerByEmailRoute, registerByPhoneRoute } from './account-opening-routes.ts';

const birth_year_month = { type: 'string', required: false, maxLength: 7 } as const;

export const registerByPhoneWithAgeRoute = {
  ...registerByPhoneRoute,
  body: { ...registerByPhoneRoute.body, birth_year_month },
} as const;

export const registerByEmailWithAgeRoute = {
  ...registerByEmailRoute,
  body: { ...registerByEmailRoute.body, birth_year_month },
} as const;
