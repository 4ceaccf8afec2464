/**
 * The client codes of the education layer and the staff controls, numbered on from the core list
 * (client-codes.ts): the first is number 76. A module of its own so that only what calls those routes
 * carries their names (the account SDK's `./custom-calls`, the web client and the console through the
 * whole catalogue); the SDK cores never import it. Add a new code at the end: its number is its place
 * here plus 76, and errors.test.ts pins every number.
 */
import { CORE_CLIENT_CODES } from './client-codes.ts';

export const SCHOOL_STAFF_CLIENT_CODES = [
  // Another class of the school has this name in this school year.
  'CLASS_NAME_TAKEN', // 76
  // The two accounts cannot be merged into one (another school, an adult, a guardian, a sign-in of its own…).
  'ACCOUNTS_NOT_MERGEABLE', // 77
  // A staff member's new password falls short of the staff password policy (length, kinds, recent reuse).
  'PASSWORD_POLICY', // 78
  // A staff member's password is past the policy's change interval (or below the policy): change it first.
  'PASSWORD_EXPIRED', // 79
] as const;

/** The name of a client code of this group; undefined for any other number. */
export const schoolStaffCodeName = (code: number): (typeof SCHOOL_STAFF_CLIENT_CODES)[number] | undefined =>
  code >= CORE_CLIENT_CODES.length ? SCHOOL_STAFF_CLIENT_CODES[code - CORE_CLIENT_CODES.length] : undefined;
