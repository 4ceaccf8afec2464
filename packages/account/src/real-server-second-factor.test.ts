/**
 * The second-factor entry against the real server: a password sign-in of an account with an
 * authenticator app rejects with MFA_REQUIRED carrying its challenge, and `verifySecondFactor` with an
 * app code (computed here by the independent RFC 6238 helper) finishes it with the tokens kept.
 */
import { ClientCode } from '@edupass/protocol';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { describe, expect, it } from 'vitest';
import * as sdk from './index.ts';
import * as secondFactor from './second-factor.ts';
import { PASSWORD, withRealServer } from './testing/real-server.test-setup.ts';

let offset = 0;
const now = () => Date.now() + offset;
const { newClient, signUpByPhone } = withRealServer({}, { now });

describe('second factor through the SDK', () => {
  it('set up an app, then sign in with the password and an app code; errors are typed', async () => {
    const client = newClient();
    const { phone } = await signUpByPhone(client);
    const setup = await secondFactor.startTotp(client);
    const confirmed = await secondFactor.confirmTotp(client, { code: totpCode(setup.secret, stepAt(now())) });
    expect(confirmed.recovery_codes).toHaveLength(10);
    expect(await secondFactor.secondFactorStatus(client)).toMatchObject({ totp: true, recovery_codes_left: 10 });
    offset += 30_000;

    const other = newClient();
    const error = await sdk.loginByPassword(other, { identity: phone, password: PASSWORD }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.AuthError);
    expect(error).toMatchObject({ code: ClientCode.MFA_REQUIRED, name: 'MFA_REQUIRED', status: 401 });
    const challenge = secondFactor.secondFactorChallengeOf(error);
    expect(challenge?.mfa_methods).toEqual(['totp', 'recovery_code']);
    const wrong = await secondFactor
      .verifySecondFactor(other, { mfa_challenge: challenge?.mfa_challenge ?? '', code: '000000' })
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ name: 'MFA_INVALID', code: ClientCode.MFA_INVALID });
    expect(secondFactor.secondFactorChallengeOf(wrong)).toBeUndefined();
    const result = await secondFactor.verifySecondFactor(other, {
      mfa_challenge: challenge?.mfa_challenge ?? '',
      code: totpCode(setup.secret, stepAt(now())),
    });
    expect(result.user_info.id).toEqual(expect.any(Number));
    expect(other.tokens.get().access).toEqual(expect.any(String));
    expect((await sdk.getProfile(other)).id).toBe(result.user_info.id);
  });
});
