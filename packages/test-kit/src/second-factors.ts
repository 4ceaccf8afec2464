/**
 * Second factors for the server's HTTP tests, set up over the real API as the account centre does: an
 * authenticator app enrolled (its secret read back and its first code confirmed), a software passkey
 * registered.
 */
import type { RecoveryCodes, TotpSetup } from '@edupass/protocol';
import { expect } from 'vitest';
import { A, type Call } from './accounts.ts';
import { stepAt, totpCode } from './rfc6238.ts';
import { type SoftPasskey, softPasskey } from './webauthn-authenticator.ts';

/**
 * Enrols an authenticator app with `token`'s session, confirmed with its code at `now` (the server's
 * clock): the app's secret and recovery codes. That step is then used; a sign-in's code must be of a
 * later one.
 */
export const enrolAuthenticatorApp = async (call: Call, token: string, now = Date.now()) => {
  const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const code = totpCode(setup.body.secret, stepAt(now));
  const confirmed = await call<RecoveryCodes>('POST', `${A}/second-factor/totp/confirm`, { code }, { token });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { secret: setup.body.secret, recovery: confirmed.body.recovery_codes };
};

/** Registers a new software passkey with `token`'s session, for the site at `publicUrl`. */
export const registerSoftPasskey = async (call: Call, token: string, publicUrl: string): Promise<SoftPasskey> => {
  const { hostname, origin } = new URL(publicUrl);
  const passkey = softPasskey(hostname, origin);
  const options = await call<{ challenge: string }>('POST', `${A}/second-factor/passkeys/options`, undefined, {
    token,
  });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const added = await call(
    'POST',
    `${A}/second-factor/passkeys`,
    { name: 'Laptop', response: passkey.register(options.body) },
    { token },
  );
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return passkey;
};
