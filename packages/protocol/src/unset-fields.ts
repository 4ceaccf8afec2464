/**
 * The integer profile fields a user may leave unset. Existing clients read them as integers
 * (compatibility.md), so the wire carries 0 for an unset one:
 * - `sex`: 0 is also a value (female; 1 is male), so 0 alone cannot say "not set";
 * - `birthday`: 0 (1970-01-01) is "not set" to every client;
 * - `grade`: 0 is no grade of the grade list, so it is "not set".
 * EduPass's server also lists the unset ones in `unset_fields` (clients that do not know the field
 * ignore it), which is how EduPass's own screens tell an unset sex from a chosen one.
 */
import type { UserInfo } from './types.ts';

export const UNSET_WHEN_ZERO = ['sex', 'birthday', 'grade'] as const;
export type UnsettableField = (typeof UNSET_WHEN_ZERO)[number];

/** Whether the user left `field` unset: by `unset_fields` when the server sends it, else by 0 where 0 is unambiguous. */
export const isUnset = (user: Pick<UserInfo, UnsettableField | 'unset_fields'>, field: UnsettableField): boolean =>
  user.unset_fields ? user.unset_fields.includes(field) : field !== 'sex' && !user[field];
