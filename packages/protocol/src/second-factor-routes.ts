/**
 * The second factor: an authenticator app (TOTP), passkeys (WebAuthn) and recovery codes. Each route
 * is its own export, as in account-routes.ts, so a bundle keeps only the calls it makes.
 *
 * A sign-in whose first step passed answers E_11 with `mfa_challenge` (single use, bound to the
 * account and that step) and `mfa_methods`; `second-factor/verify` with the challenge and a code or a
 * passkey answer finishes it with the usual `{user_info, auth}`. A passkey alone signs in through
 * `passkeys/sign-in/options` and `passkeys/sign-in`. Passkey answers (`passkey`, `response`) are the
 * JSON form of the WebAuthn credential, as @simplewebauthn/browser returns it.
 */
import { ACCOUNTS_BASE } from './account-routes.ts';
import type { Answer } from './answer-schema.ts';
import type { Method, RouteSpec } from './routes.ts';
import type {
  passkeySummaryAnswer,
  recoveryCodesAnswer,
  secondFactorStatusAnswer,
  totpSetupAnswer,
} from './second-factor-answers.ts';

/* @__NO_SIDE_EFFECTS__ */
const s = (maxLength = 256) => ({ type: 'string', required: true, maxLength }) as const;
/* @__NO_SIDE_EFFECTS__ */
const opt = <F extends { type: string }>(field: F) => ({ ...field, required: false }) as const;
const webauthnAnswer = { type: 'any', required: true } as const;
const passkeyId = { id: { type: 'integer', required: true } } as const;
const pid = s(64);

// account-routes.ts's helper, again here on purpose: esbuild honours @__NO_SIDE_EFFECTS__ only within a
// module, and an imported helper's calls would keep these routes in every bundle of the main SDK entry.
/* @__NO_SIDE_EFFECTS__ */
const route = <const A extends RouteSpec['auth'], const E extends object = Record<never, never>>(
  method: Method,
  path: string,
  auth: A,
  extra: E = {} as E,
) =>
  ({ method, path: `${ACCOUNTS_BASE}/${path}`, host: 'tiger', auth, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: A; status: 200 },
    keyof E
  > &
    E;

/** The caller's factors. */
export const secondFactorStatusRoute = route('GET', 'second-factor', 'token');
/** A new authenticator-app key (step-up first): the key, its otpauth URI and a QR code of it. */
export const startTotpRoute = route('POST', 'second-factor/totp', 'token');
/** A code from the app confirms the key; the first factor of an account also answers its recovery codes. */
export const confirmTotpRoute = route('POST', 'second-factor/totp/confirm', 'token', { body: { code: s(16) } });
export const removeTotpRoute = route('DELETE', 'second-factor/totp', 'token', { status: 204 });
export const passkeyRegistrationOptionsRoute = route('POST', 'second-factor/passkeys/options', 'token');
export const registerPasskeyRoute = route('POST', 'second-factor/passkeys', 'token', {
  body: { name: s(64), response: webauthnAnswer },
});
export const renamePasskeyRoute = route('PATCH', 'second-factor/passkeys/:id', 'token', {
  params: passkeyId,
  body: { name: s(64) },
  status: 204,
});
export const removePasskeyRoute = route('DELETE', 'second-factor/passkeys/:id', 'token', {
  params: passkeyId,
  status: 204,
});
/** Ten new recovery codes (the old ones stop working), shown this once. */
export const newRecoveryCodesRoute = route('POST', 'second-factor/recovery-codes', 'token');
/** Options for a passkey answering a sign-in's challenge. */
export const secondFactorPasskeyOptionsRoute = route('POST', 'second-factor/passkey-options', 'none', {
  body: { mfa_challenge: s() },
});
/** Finishes a sign-in: the challenge and an app code, a recovery code or a passkey answer. */
export const verifySecondFactorRoute = route('POST', 'second-factor/verify', 'none', {
  body: { mfa_challenge: s(), code: opt(s(32)), passkey: opt(webauthnAnswer) },
});
export const passkeySignInOptionsRoute = route('POST', 'passkeys/sign-in/options', 'none');
export const passkeySignInRoute = route('POST', 'passkeys/sign-in', 'none', {
  body: { pid, response: webauthnAnswer, agreement_ids: { type: 'integer[]', required: false, maxLength: 64 } },
});
/** Step-up with the second factor: options for a passkey, then a code or a passkey answer. */
export const stepUpPasskeyOptionsRoute = route('POST', 'step-up/passkey/options', 'token');
export const stepUpBySecondFactorRoute = route('POST', 'step-up/second-factor', 'token', {
  body: { code: opt(s(32)), passkey: opt(webauthnAnswer) },
  status: 204,
});

export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery_code';

/** Added to the E_11 answer of a sign-in's first step. */
export interface SecondFactorChallenge {
  mfa_challenge: string;
  mfa_methods: SecondFactorMethod[];
}

export type PasskeySummary = Answer<typeof passkeySummaryAnswer>;
/** `GET …/second-factor`. */
export type SecondFactorStatus = Answer<typeof secondFactorStatusAnswer>;
export type TotpSetup = Answer<typeof totpSetupAnswer>;
/** Recovery codes, answered only when they are made. */
export type RecoveryCodes = Answer<typeof recoveryCodesAnswer>;
