/**
 * Each server code's client number — `ClientCode[SERVER_ERRORS[code].client]` — without the catalogue's
 * messages, which would double an SDK's size. The SDKs map an error answer with it when `error_number`
 * is missing or unknown (other servers of this API send only `error_code`, compatibility.md).
 *
 * Written as runs of consecutive codes with consecutive numbers plus the codes outside any run, so an
 * SDK carries a few bytes instead of a 50-entry table; errors.test.ts checks that it lists every server
 * code with its catalogue number.
 */
import type { ClientCodeNumber, ServerCode } from './errors.ts';

type CodeNumbers = Partial<Record<ServerCode, ClientCodeNumber>>;

/** `prefix + first` … `prefix + (first + count - 1)`, numbered `number` … `number + count - 1`. */
/* @__NO_SIDE_EFFECTS__ */
const run = (prefix: string, first: number, count: number, number: number): CodeNumbers =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [prefix + (first + i), number + i]));

/** The captcha calls' own codes: all the captcha SDK carries (any other code it meets is CAPTCHA_ERROR). */
export const CAPTCHA_CODE_NUMBERS: CodeNumbers = /* @__PURE__ */ Object.assign(
  run('1001700', 1, 4, 47), // 10017001 CAPTCHA_APPID_NOT_FOUND … 10017004 GEETEST_CAPTCHA_FAIL
  { GCAP_1: 1 },
);

export const SERVER_CODE_NUMBERS = /* @__PURE__ */ Object.assign(
  run('AC3_', 0, 27, 14), // AC3_0 PHONE_REGISTERED … AC3_26 PHONE_BOUND_BY_OTHER_ACCOUNT
  run('E_', 1, 6, 56), // E_1 INVALID_REQUEST … E_6 DELIVERY_FAILED
  run('E_', 7, 15, 65), // E_7 STEP_UP_REQUIRED … E_21 PASSWORD_EXPIRED
  {
    AC3_27: 45,
    AC3_44: 53,
    AC3_48: 54,
    AC3_61: 52,
    C_1: 41,
    C_2: 42,
    '10000000': 43,
    '10000001': 44,
    '10000002': 46,
    E_0: 11,
  },
  CAPTCHA_CODE_NUMBERS,
) as Record<ServerCode, ClientCodeNumber>;

/**
 * The client number of an error answer: its `error_number` when the catalogue knows that number, else
 * `table`'s number for its `error_code`, else `fallback` (an unknown code passes through as is).
 */
export const clientNumberOf = (
  table: Partial<Record<string, number>>,
  errorCode: unknown,
  errorNumber: unknown,
  known: (code: number) => unknown,
  fallback: number,
): number => {
  if (typeof errorNumber === 'number' && known(errorNumber) !== undefined) return errorNumber;
  return (typeof errorCode === 'string' && Object.hasOwn(table, errorCode) && table[errorCode]) || fallback;
};
