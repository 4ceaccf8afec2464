/**
 * Pupils' usernames and initial passwords, drawn from an alphabet without look-alikes (no 0/o,
 * 1/l/i), so a child can copy them from a card.
 *
 * Username: `s<school id>` + `_` + 5 random characters, e.g. `s12_k7mp3` — the school is readable at a
 * glance, and 31^5 (28 million) names per school make a clash rare; a clash is drawn again.
 * Password: 8 random characters with at least one letter and one digit (about 39 bits), drawn for
 * each pupil; kept sealed, not hashed, until the pupil chooses one (passwords/initial-passwords.ts).
 */
import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const DIGITS = '23456789';
const LETTERS = 'abcdefghjkmnpqrstuvwxyz';

const draw = (length: number, alphabet = ALPHABET) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

/** A code people type from paper or a board (a class's join code, a guardian link code): upper case. */
export const drawCode = (length: number) => draw(length).toUpperCase();

export const drawUsername = (schoolId: number) => `s${schoolId}_${draw(5)}`;

export const drawInitialPassword = (): string => {
  const body = draw(6);
  return `${draw(1, LETTERS)}${body}${draw(1, DIGITS)}`;
};
