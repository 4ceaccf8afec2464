import { AuthError } from '@edupass/account';
import { ClientCode } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { describeError, type ErrorTexts } from './error-text.ts';
import { errorsEn } from './errors/en.ts';

const texts: ErrorTexts = {
  errors: errorsEn,
  unknownCode: 'Error {code}: {message}',
  unexpected: 'Something went wrong.',
};
const refusal = (serverCode: string, message: string, code: number = ClientCode.INVALID_REQUEST) =>
  new AuthError(code, message, { serverCode, status: 400 });

describe('describeError', () => {
  it("an invalid request (E_1) gives the catalogue's sentence, then the server's detail", () => {
    const detail = 'NETEASE cannot be chosen until its keys are set; missing: captchaId (NETEASE_CAPTCHA_ID).';
    expect(describeError(texts, refusal('E_1', detail))).toBe(`${errorsEn.INVALID_REQUEST} ${detail}`);
  });

  it('an E_1 without a detail of its own gives the sentence alone', () => {
    expect(describeError(texts, refusal('E_1', 'Invalid request.'))).toBe(errorsEn.INVALID_REQUEST);
    expect(describeError(texts, refusal('E_1', 'E_1'))).toBe(errorsEn.INVALID_REQUEST);
    expect(describeError(texts, refusal('E_1', '  '))).toBe(errorsEn.INVALID_REQUEST);
  });

  it("other codes never show the server's English", () => {
    const wrong = refusal(
      'AC3_2',
      'User does not exist or the password is wrong.',
      ClientCode.USER_NOT_EXIST_OR_WRONG_PASSWORD,
    );
    expect(describeError(texts, wrong)).toBe(errorsEn.USER_NOT_EXIST_OR_WRONG_PASSWORD);
    // An E_1 naming a failed rule: the rule's sentence says it all.
    expect(describeError(texts, refusal('E_1', 'Phone must be 11 digits.', ClientCode.INVALID_PHONE))).toBe(
      errorsEn.INVALID_PHONE,
    );
    // A rule the client checks itself has no server code: the sentence alone.
    expect(describeError(texts, new AuthError(ClientCode.INVALID_REQUEST, 'phone is required'))).toBe(
      errorsEn.INVALID_REQUEST,
    );
  });
});
