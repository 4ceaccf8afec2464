/**
 * `@edupass/account/email` against the real server: an e-mail-only account resets its password by an
 * e-mail code, signs in by one, and changes its address; an unknown address resolves the send alike
 * and rejects at the check as a wrong code.
 */
import { ClientCode } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import * as email from './email.ts';
import * as sdk from './index.ts';
import { nextEmail, PASSWORD, rejection, withRealServer } from './testing/real-server.test-setup.ts';

const real = withRealServer();
const { newClient, code } = real;

/** An e-mail-only account, signed in on `client`. */
const signUpByEmail = async (client: sdk.AccountClient) => {
  const address = nextEmail();
  await sdk.sendEmailCode(client, { email: address });
  const { ticket } = await sdk.checkEmailCode(client, { email: address, captcha: await code(address) });
  await sdk.registerByEmail(client, { captchaTicket: ticket, password: PASSWORD, rePassword: PASSWORD });
  return address;
};

describe('@edupass/account/email', () => {
  it('resets the password of an e-mail-only account by an e-mail code', async () => {
    const client = newClient();
    const address = await signUpByEmail(client);
    const anonymous = newClient();
    const signUpCode = await real.server.lastCode(address);
    await email.sendEmailResetCode(anonymous, { email: address });
    const captcha = await code(address, signUpCode);
    const { ticket } = await email.checkEmailResetCode(anonymous, { email: address, captcha });
    await sdk.resetPassword(anonymous, { ticket, password: 'Changed456', confirm_password: 'Changed456' });
    const signedIn = await sdk.loginByPassword(anonymous, { identity: address, password: 'Changed456' });
    expect(signedIn.auth.email).toBe(address);
  });

  it('signs in by an e-mail code; an unknown address resolves the send and rejects the code as wrong', async () => {
    const address = await signUpByEmail(newClient());
    const client = newClient();
    const signUpCode = await real.server.lastCode(address);
    await email.sendEmailLoginCode(client, { email: address });
    const result = await email.loginByEmail(client, { email: address, captcha: await code(address, signUpCode) });
    expect(result.auth.email).toBe(address);
    expect(client.tokens.get()).toBeDefined();

    const unknown = nextEmail();
    await expect(email.sendEmailLoginCode(newClient(), { email: unknown })).resolves.toBeUndefined();
    const error = await rejection(email.loginByEmail(newClient(), { email: unknown, captcha: '123456' }));
    expect(error.code).toBe(ClientCode.VERIFY_CAPTCHA_FAIL);
  });

  it('changes the e-mail with a code to the new address; an invalid address is refused before sending', async () => {
    const client = newClient();
    await signUpByEmail(client);
    const next = nextEmail();
    await email.sendEmailBindCode(client, { email: next });
    await email.bindEmail(client, { email: next, captcha: await code(next) });
    expect((await sdk.getPrivacy(client)).email).toBe(next);
    const invalid = await rejection(email.sendEmailBindCode(client, { email: 'not-an-address' }));
    expect(invalid.code).toBe(ClientCode.INVALID_EMAIL);
  });
});
