/**
 * What people paste or autofill into a phone or code box, made into what the API takes: full-width
 * digits and plus signs made ASCII; spaces, dashes, dots and brackets dropped; a +86 / 0086 country
 * code (or a bare 86 before an 11-digit number) removed. Every phone and code field goes through here.
 */

const FULL_WIDTH = /[\uFF0B\uFF10-\uFF19]/g;
const toAscii = (text: string) => text.replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
const NATIONAL_LENGTH = 11;
export const CODE_LENGTH = 6;

/** The phone number's digits, without a China country code. */
export const normalizePhone = (raw: string): string => {
  const text = toAscii(raw).trim();
  const digits = text.replace(/\D/g, '');
  if (text.startsWith('+86')) return digits.slice(2);
  if (text.startsWith('0086')) return digits.slice(4);
  if (digits.length === NATIONAL_LENGTH + 2 && digits.startsWith('861')) return digits.slice(2);
  return digits;
};

/** A verification code's digits ("123 456", "１２３４５６", "Code: 123456"), at most six. */
export const normalizeCode = (raw: string): string => toAscii(raw).replace(/\D/g, '').slice(0, CODE_LENGTH);

/** A phone number's digits grouped 3-4-4 for reading ("138 0013 8000"); what is beyond 11 follows. */
export const groupPhone = (digits: string): string =>
  [digits.slice(0, 3), digits.slice(3, 7), digits.slice(7)].filter(Boolean).join(' ');
