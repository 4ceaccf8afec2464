import { AuthError } from '@edupass/account';
import { ClientCode, checks } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { fieldOfError } from './error-field.ts';

const refusal = (serverCode: string, code: number, message = '') =>
  new AuthError(code, message, { serverCode, status: 400 });

describe('fieldOfError', () => {
  it.each([
    [refusal('AC3_9', ClientCode.WRONG_OLD_PASSWORD), 'old_password'],
    [refusal('AC3_13', ClientCode.VERIFY_CAPTCHA_FAIL), 'captcha'],
    [refusal('AC3_1', ClientCode.PHONE_UNREGISTERED), 'phone_number'],
    [refusal('AC3_15', ClientCode.OLD_PHONE_WRONG), 'old_phone_number'],
    [refusal('AC3_4', ClientCode.CANNOT_SET_FUTURE_DATE), 'birthday'],
    [refusal('AC3_6', ClientCode.USERNAME_EXISTS), 'username'],
    [refusal('E_1', ClientCode.INVALID_REQUEST, 'avatar_url must be an http(s) URL.'), 'avatar_url'],
    [refusal('E_1', ClientCode.INVALID_NICKNAME, 'Invalid nickname "a b", it should match the RegExp.'), 'nickname'],
  ])('%s → %s', (error, field) => {
    expect(fieldOfError(error)).toBe(field);
  });

  it("the SDK's own rule failures name their field too", () => {
    expect(fieldOfError(checks.phone_number('123'))).toBe('phone_number');
  });

  it('errors of the whole form, the human check and anything else name none', () => {
    expect(fieldOfError(refusal('E_1', ClientCode.INVALID_REQUEST, 'Invalid request.'))).toBeUndefined();
    expect(fieldOfError(refusal('GCAP_1', ClientCode.INVALID_CAPTCHA))).toBeUndefined();
    expect(fieldOfError(refusal('AC3_23', ClientCode.SEND_CAPTCHA_TOO_FREQUENTLY))).toBeUndefined();
    expect(fieldOfError(new Error('boom'))).toBeUndefined();
    expect(fieldOfError(undefined)).toBeUndefined();
  });
});
