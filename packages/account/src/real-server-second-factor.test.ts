/**
 * The second-factor entry against the real server: a password sign-in of an account with an
 * authenticator app rejects with MFA_REQUIRED carrying its challenge, and `verifySecondFactor` with an
 * app code (computed here by the independent RFC 6238 helper) finishes it with the tokens kept.
 */
import { ClientCode } from '@edupass/protocol';
import { startTestServer } from '@edupass/test-kit/harness';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from './index.ts';
import * as secondFactor from './second-factor.ts';

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server;
let offset = 0;
const now = () => Date.now() + offset;

beforeAll(async () => {
  server = await startTestServer({}, { now });
});
afterAll(() => server?.close());

const phone = `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const PASSWORD = 'Kestrel2718';

const newClient = () =>
  sdk.createAccountClient({
    pid: 'edupass',
    appid: 'wx-dev',
    product_code: 'edupass',
    platform: 'web',
    auth_version: 2,
    host: { tiger: server.url },
    storage: sdk.memoryTokenStore(),
  });

describe('second factor through the SDK', () => {
  it('set up an app, then sign in with the password and an app code; errors are typed', async () => {
    const client = newClient();
    await sdk.sendRegisterCode(client, { phone_number: phone });
    const captcha = (await server.lastCode(phone)) ?? '';
    await sdk.registerByPhone(client, { phone_number: phone, captcha, password: PASSWORD });
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
