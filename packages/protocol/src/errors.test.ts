import { describe, expect, test } from 'vitest';
import { ClientCode, clientCodeName, SERVER_ERRORS, type ServerCode } from './errors.ts';
import { SERVER_CODE_NUMBERS } from './server-code-numbers.ts';

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

describe('the error catalogue', () => {
  test.each(Object.entries(COMPATIBILITY_TABLE))('server code %s maps to client number %i', (code, number) => {
    const spec = SERVER_ERRORS[code as keyof typeof SERVER_ERRORS];
    expect(spec, `${code} is missing from SERVER_ERRORS`).toBeDefined();
    expect(ClientCode[spec.client]).toBe(number);
  });

  test('client-side codes carry the numbers existing clients know', () => {
    for (const [number, name] of Object.entries(CLIENT_SIDE)) expect(clientCodeName(Number(number))).toBe(name);
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

describe('SERVER_CODE_NUMBERS (what the SDKs map error_code with)', () => {
  test('is the catalogue: every server code, each with ClientCode[SERVER_ERRORS[code].client]', () => {
    expect(Object.keys(SERVER_CODE_NUMBERS).sort()).toEqual(Object.keys(SERVER_ERRORS).sort());
    for (const [code, spec] of Object.entries(SERVER_ERRORS)) {
      expect(SERVER_CODE_NUMBERS[code as ServerCode], code).toBe(ClientCode[spec.client]);
    }
  });
});
