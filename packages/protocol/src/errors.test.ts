import { describe, expect, test } from 'vitest';
import { CORE_CLIENT_CODES, CoreCode, coreCodeName } from './client-codes.ts';
import { CLIENT_MESSAGES, ClientCode, clientCodeName, SERVER_ERRORS, type ServerCode } from './errors.ts';
import { SCHOOL_STAFF_CLIENT_CODES, schoolStaffCodeName } from './school-staff-codes.ts';
import { CAPTCHA_CODE_NUMBERS, SERVER_CODE_NUMBERS } from './server-code-numbers.ts';

// compatibility.md, "Server codes and what they mean": server code → client number.
const COMPATIBILITY_TABLE: Record<string, number> = {
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
  GCAP_1: 1,
  '10000000': 43,
  '10000001': 44,
  '10000002': 46,
  '10017001': 47,
  '10017002': 48,
  '10017003': 49,
  '10017004': 50,
};

// compatibility.md, "Client-side codes thrown before any request".
const CLIENT_SIDE: Record<number, string> = {
  [-1]: 'INIT_PARAMS_INVALID',
  0: 'INVALID_PHONE',
  1: 'INVALID_CAPTCHA',
  2: 'INVALID_PASSWORD',
  3: 'INVALID_USERNAME',
  4: 'INVALID_NICKNAME',
  5: 'INVALID_FULLNAME',
  6: 'INVALID_QQ',
  7: 'INVALID_DESCRIPTION',
  8: 'INVALID_SEX',
  9: 'INVALID_BIRTHDAY',
  10: 'PASSWORD_MISMATCH',
  11: 'NO_TOKEN',
  12: 'REQUEST_TIMEOUT',
  13: 'REQUEST_ERROR',
  51: 'INVALID_EMAIL',
  55: 'EMPTY_AGREEMENT_IDS',
};

// EduPass's own numbers, past the specification's range: sent as `error_number` and thrown by the SDKs,
// so as fixed as the specification's (ClientCode numbers a code by its place in a list).
const EDUPASS_OWN: Record<number, string> = {
  56: 'INVALID_REQUEST',
  57: 'NOT_FOUND',
  58: 'SERVER_ERROR',
  59: 'FORBIDDEN',
  60: 'LOGIN_LOCKED',
  61: 'DELIVERY_FAILED',
  62: 'CAPTCHA_REJECTED',
  63: 'CAPTCHA_ERROR',
  64: 'CAPTCHA_CLOSED',
  65: 'STEP_UP_REQUIRED',
  66: 'PASSWORD_TOO_COMMON',
  67: 'ORIGIN_NOT_ALLOWED',
  68: 'SERVICE_UNAVAILABLE',
  69: 'MFA_REQUIRED',
  70: 'MFA_INVALID',
  71: 'PASSKEY_INVALID',
  72: 'MFA_SETUP_REQUIRED',
  73: 'AGREEMENTS_UNSIGNED',
  74: 'ACCOUNT_DELETING',
  75: 'PASSWORD_CHANGE_REQUIRED',
  76: 'CLASS_NAME_TAKEN',
  77: 'ACCOUNTS_NOT_MERGEABLE',
  78: 'PASSWORD_POLICY',
  79: 'PASSWORD_EXPIRED',
};

describe('the error catalogue', () => {
  test.each(Object.entries(COMPATIBILITY_TABLE))('server code %s maps to client number %i', (code, number) => {
    const spec = SERVER_ERRORS[code as keyof typeof SERVER_ERRORS];
    expect(spec, `${code} is missing from SERVER_ERRORS`).toBeDefined();
    expect(ClientCode[spec.client]).toBe(number);
  });

  test('client-side codes carry the numbers existing clients know', () => {
    for (const [number, name] of Object.entries(CLIENT_SIDE)) expect(clientCodeName(Number(number))).toBe(name);
  });

  test("EduPass's own codes keep their numbers, each both ways", () => {
    for (const [number, name] of Object.entries(EDUPASS_OWN)) {
      expect(clientCodeName(Number(number))).toBe(name);
      expect(ClientCode[name as keyof typeof ClientCode]).toBe(Number(number));
    }
  });

  test('clientCodeName knows no number outside the catalogue', () => {
    for (const number of [-2, 80, 1.5, Number.NaN]) expect(clientCodeName(number), String(number)).toBeUndefined();
    expect(Object.keys(ClientCode)).toHaveLength(81);
  });

  test('client numbers are unique, and the specification range 0..55 is fully assigned', () => {
    const numbers = Object.values(ClientCode);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (let n = 0; n <= 55; n++) expect(clientCodeName(n), `client number ${n}`).toBeDefined();
  });

  test('every server code has a status in 400..599, a message and a category', () => {
    for (const [code, spec] of Object.entries(SERVER_ERRORS)) {
      expect(spec.status, code).toBeGreaterThanOrEqual(400);
      expect(spec.status, code).toBeLessThan(600);
      expect(spec.message.length, code).toBeGreaterThan(0);
    }
  });

  test('existing clients expect 403 for a failed password login and for "not signed in"', () => {
    expect(SERVER_ERRORS.AC3_2.status).toBe(403);
    expect(SERVER_ERRORS.E_0.status).toBe(403);
    expect(SERVER_ERRORS['10000000'].message).toBe('Access token is invalid.');
    expect(SERVER_ERRORS.GCAP_1.message).toBe('Invalid Ticket.');
  });
});

describe('the core list and the education and staff group (what the SDK cores carry, and what they do not)', () => {
  test('the core list is closed at 75; the group numbers on from 76, and ClientCode is the two', () => {
    expect(CORE_CLIENT_CODES).toHaveLength(76);
    expect(SCHOOL_STAFF_CLIENT_CODES[0]).toBe('CLASS_NAME_TAKEN');
    for (const [name, number] of Object.entries(ClientCode)) {
      const core = coreCodeName(number) !== undefined;
      expect(core ? coreCodeName(number) : schoolStaffCodeName(number), name).toBe(name);
      expect(core ? CoreCode[name as keyof typeof CoreCode] : undefined, name).toBe(core ? number : undefined);
    }
    expect(schoolStaffCodeName(75)).toBeUndefined();
    expect(coreCodeName(76)).toBeUndefined();
  });
});

describe('SERVER_CODE_NUMBERS (what the SDKs map error_code with)', () => {
  test('is the catalogue: every server code, each with ClientCode[SERVER_ERRORS[code].client]', () => {
    expect(Object.keys(SERVER_CODE_NUMBERS).sort()).toEqual(Object.keys(SERVER_ERRORS).sort());
    for (const [code, spec] of Object.entries(SERVER_ERRORS)) {
      expect(SERVER_CODE_NUMBERS[code as ServerCode], code).toBe(ClientCode[spec.client]);
    }
  });
});

describe('CAPTCHA_CODE_NUMBERS (what the captcha SDK maps error_code with)', () => {
  test('is the catalogue for the captcha calls: GCAP_1 and 10017001 … 10017004', () => {
    expect(Object.keys(CAPTCHA_CODE_NUMBERS).sort()).toEqual([
      '10017001',
      '10017002',
      '10017003',
      '10017004',
      'GCAP_1',
    ]);
    for (const [code, number] of Object.entries(CAPTCHA_CODE_NUMBERS)) {
      expect(number, code).toBe(ClientCode[SERVER_ERRORS[code as ServerCode].client]);
    }
  });
});

describe('CLIENT_MESSAGES', () => {
  test("are the specification's words", () => {
    expect(CLIENT_MESSAGES).toMatchObject({
      notInitialised: 'Please run init correctly before getting the auth instance.',
      initFail: 'Auth init fail.Check init params.',
      noToken: 'NO Token. Please login.',
      noTokenExpired: 'NO Token(cookie might have been expired). Please login.',
      network: 'Network error.',
    });
    expect(CLIENT_MESSAGES.timeout(20000)).toBe('ECONNABORTED:timeout of 20000 ms exceeded');
  });
});
