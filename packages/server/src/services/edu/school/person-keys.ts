/**
 * One pupil, one key per school: a school's identifier of a person — the roster template's 学号/编号,
 * a OneRoster sourcedId, the CAS user, a SAML attribute, an OpenID Connect subject, as the connector's
 * mapping names it — is stored as one key per school, so whichever of the school's sources names the
 * person finds the same account. Only HMACs under the keyring's `identifiers` key are stored, in two
 * steps so a roster job (which keeps hashes only between its preview and its confirm) can key a
 * person once its school is known: the identifier's hash first (`personIdHash`, in the roster as read),
 * then the school's key of that hash (`schoolPersonKey`).
 *
 * A key is never made from a phone number or a name: only a school's own identifier joins an account.
 */
import type { KeyObject } from 'node:crypto';
import { hmac } from '../../security/hashing.ts';

/** The hash of a school's identifier of a person, before its school is known. */
export const personIdHash = (key: KeyObject, identifier: string) => hmac(key, `person-id:${identifier.trim()}`);

/** The school's key of a person whose identifier hashes to `idHash`. */
export const schoolPersonKey = (key: KeyObject, schoolId: number, idHash: string) =>
  hmac(key, `school-person:${schoolId}:${idHash}`);

/** The school's key of the identifier, in one step (a sign-in that has the identifier in clear). */
export const schoolKeyOf = (key: KeyObject, schoolId: number, identifier: string) =>
  schoolPersonKey(key, schoolId, personIdHash(key, identifier));
