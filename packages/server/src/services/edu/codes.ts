/**
 * Codes people copy from paper, a card or a board, drawn from an alphabet without look-alikes (no
 * 0/o, 1/l/i): a class's join code, a guardian link code, and the parts of a pupil's username and
 * initial password (school/credentials.ts).
 */
import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `length` characters of `alphabet`, each drawn uniformly. */
export const draw = (length: number, alphabet = ALPHABET) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

/** A code people type from paper or a board (a class's join code, a guardian link code): upper case. */
export const drawCode = (length: number) => draw(length).toUpperCase();
