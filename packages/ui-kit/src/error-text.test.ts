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

describe('network and server failures', () => {
  /** The captcha SDK's error as it stands for a call: a CAPTCHA_ERROR keeping what went wrong. */
  const captchaFailure = (details: { cause?: unknown; status?: number; body?: unknown }) =>
    Object.assign(new Error('some error occurred', { cause: details.cause }), {
      name: 'CAPTCHA_ERROR',
      code: ClientCode.CAPTCHA_ERROR,
      status: details.status,
      body: details.body,
    });

  it('a captcha start that got no answer reads as the server out of reach, not as the captcha', () => {
    expect(describeError(texts, captchaFailure({ cause: new TypeError('Failed to fetch') }))).toBe(
      errorsEn.REQUEST_ERROR,
    );
    const aborted = new DOMException('signal is aborted without reason', 'AbortError');
    expect(describeError(texts, captchaFailure({ cause: aborted }))).toBe(errorsEn.REQUEST_TIMEOUT);
    expect(describeError(texts, captchaFailure({ status: 502, body: '<html>bad gateway</html>' }))).toBe(
      errorsEn.SERVER_ERROR,
    );
  });

  it('the captcha is blamed when the captcha itself failed', () => {
    // A vendor script that would not load, an answer the captcha could not read.
    expect(describeError(texts, captchaFailure({ cause: new Error('timed out loading https://x/gt.js') }))).toBe(
      errorsEn.CAPTCHA_ERROR,
    );
    expect(describeError(texts, captchaFailure({ body: { nonsense: true } }))).toBe(errorsEn.CAPTCHA_ERROR);
  });

  it("the account SDK's own network errors and a failed chunk keep their sentences", () => {
    expect(describeError(texts, new AuthError(ClientCode.REQUEST_TIMEOUT, 'timeout of 20000 ms exceeded'))).toBe(
      errorsEn.REQUEST_TIMEOUT,
    );
    expect(describeError(texts, new AuthError(ClientCode.REQUEST_ERROR, 'Network error.'))).toBe(
      errorsEn.REQUEST_ERROR,
    );
    const chunk = Object.assign(new Error('Loading chunk 2 failed', { cause: new TypeError('x') }), {
      name: 'ChunkLoadError',
    });
    expect(describeError(texts, chunk)).toBe(errorsEn.REQUEST_ERROR);
    expect(describeError(texts, new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      errorsEn.REQUEST_ERROR,
    );
    // A bug of ours is not the network's fault.
    expect(describeError(texts, new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      'Something went wrong.',
    );
  });
});
