/**
 * What a new password must be beyond the wire's 6–20 rule: not one of the most common passwords
 * (zxcvbn's list of about 49,000, the ones password sprays try first). The list is read on the
 * first check, once, into a Set. Compared case-insensitively: "Password1" is sprayed as often as
 * "password1".
 */
import { fail } from '../../errors.ts';
import { isWeakPassword } from './argon2.ts';

let common: Promise<Set<string>> | undefined;

const commonPasswords = () => {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase())),
  );
  return common;
};

export const isCommonPassword = async (password: string): Promise<boolean> =>
  (await commonPasswords()).has(password.toLowerCase());

/** Refuses a common password with E_8, before anything is spent on the request (a code, a ticket). */
export const assertPasswordAllowed = async (password: string): Promise<void> => {
  if (await isCommonPassword(password)) fail('E_8');
};

/** The stored weak-password flag: short, of one kind of character, or common. */
export const weakPasswordFlag = async (password: string): Promise<0 | 1> =>
  isWeakPassword(password) || (await isCommonPassword(password)) ? 1 : 0;
