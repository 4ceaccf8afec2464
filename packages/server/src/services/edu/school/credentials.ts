/**
 * Pupils' usernames and initial passwords, drawn from the alphabet without look-alikes (../codes.ts),
 * so a child can copy them from a card.
 *
 * Username: `s<school id>`, a letter, then 4 random characters, e.g. `s12k7mp3` — letters and digits only,
 * so a child types it on a tablet's first keyboard layer (an earlier `s12_k7mp3` needed the symbol
 * layer for its `_`; such names keep working). The school is readable at a glance and the letter ends
 * the school's digits, so no two schools' names can meet (`s1` + `2…` is never `s12` + a letter); 23 ×
 * 31^4 (21 million) names per school make a clash rare, and a clash is drawn again.
 * Password: 8 random characters with at least one letter and one digit (about 39 bits), drawn for
 * each pupil; kept sealed, not hashed, until the pupil chooses one (passwords/initial-passwords.ts).
 */
import { draw } from '../codes.ts';

const DIGITS = '23456789';
const LETTERS = 'abcdefghjkmnpqrstuvwxyz';

export const drawUsername = (schoolId: number) => `s${schoolId}${draw(1, LETTERS)}${draw(4)}`;

export const drawInitialPassword = (): string => {
  const body = draw(6);
  return `${draw(1, LETTERS)}${body}${draw(1, DIGITS)}`;
};
