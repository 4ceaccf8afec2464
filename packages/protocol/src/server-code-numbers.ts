/**
 * Each server code's client number — `ClientCode[SERVER_ERRORS[code].client]` — without the catalogue's
 * messages, which would double an SDK's size. The SDKs map an error answer with it when `error_number`
 * is missing or unknown (other servers of this API send only `error_code`, compatibility.md). The type
 * makes it list every server code; errors.test.ts checks each number against the catalogue.
 */
import type { ClientCodeNumber, ServerCode } from './errors.ts';

/** The captcha calls' own codes: all the captcha SDK carries (any other code it meets is CAPTCHA_ERROR). */
export const CAPTCHA_CODE_NUMBERS = {
  GCAP_1: 1,
  '10017001': 47,
  '10017002': 48,
  '10017003': 49,
  '10017004': 50,
} as const satisfies Partial<Record<ServerCode, ClientCodeNumber>>;

export const SERVER_CODE_NUMBERS = /* @__PURE__ */ Object.assign(
  {
    AC3_0: 14,
    AC3_1: 15,
    AC3_2: 16,
    AC3_3: 17,
    AC3_4: 18,
    AC3_5: 19,
    AC3_6: 20,
    AC3_7: 21,
    AC3_8: 22,
    AC3_9: 23,
    AC3_10: 24,
    AC3_11: 25,
    AC3_12: 26,
    AC3_13: 27,
    AC3_14: 28,
    AC3_15: 29,
    AC3_16: 30,
    AC3_17: 31,
    AC3_18: 32,
    AC3_19: 33,
    AC3_20: 34,
    AC3_21: 35,
    AC3_22: 36,
    AC3_23: 37,
    AC3_24: 38,
    AC3_25: 39,
    AC3_26: 40,
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
    E_1: 56,
    E_2: 57,
    E_3: 58,
    E_4: 59,
    E_5: 60,
    E_6: 61,
    E_7: 65,
    E_8: 66,
    E_9: 67,
    E_10: 68,
  } as const,
  CAPTCHA_CODE_NUMBERS,
) satisfies Record<ServerCode, ClientCodeNumber>;

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
