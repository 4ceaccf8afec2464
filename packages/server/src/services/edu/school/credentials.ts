/**
 * Pupils' usernames and initial passwords, drawn from the alphabet without look-alikes (../codes.ts),
 * so a child can copy them from a card.
 *
 * Username: `s<school id>` + `_` + 5 random characters, e.g. `s12_k7mp3` — the school is readable at a
 * glance, and 31^5 (28 million) names per school make a clash rare; a clash is drawn again.
 * Password: 8 random characters with at least one letter and one digit (about 39 bits), drawn for
 * each pupil; kept sealed, not hashed, until the pupil chooses one (passwords/initial-passwords.ts).
 */
import { draw } from '../codes.ts';

const DIGITS = '23456789';
const LETTERS = 'abcdefghjkmnpqrstuvwxyz';

export const drawUsername = (schoolId: number) => `s${schoolId}_${draw(5)}`;

export const drawInitialPassword = (): string => {
  const body = draw(6);
  return `${draw(1, LETTERS)}${body}${draw(1, DIGITS)}`;
};
