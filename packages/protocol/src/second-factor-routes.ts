/**
 * The second factor: an authenticator app (TOTP), passkeys (WebAuthn) and recovery codes. Each route
 * is its own export, as in account-routes.ts, so a bundle keeps only the calls it makes.
 *
 * A sign-in whose first step passed answers E_11 with `mfa_challenge` (single use, bound to the
 * account and that step) and `mfa_methods`; `second-factor/verify` with the challenge and a code or a
 * passkey answer finishes it with the usual `{user_info, auth}`. A passkey alone signs in through
 * `passkeys/sign-in/options` and `passkeys/sign-in`. Both sign-ins take `interaction`, as the first
 * steps do (account-route-fields.ts). Passkey answers (`passkey`, `response`) are the JSON form of the
 * WebAuthn credential, as @simplewebauthn/browser returns it.
 */

import { interaction, pid } from './account-route-fields.ts';
import type { Answer } from './answer-schema.ts';
import { opt, accountRoute as route, s } from './route-fields.ts';
import type {
  passkeySummaryAnswer,
  recoveryCodesAnswer,
  secondFactorStatusAnswer,
  totpSetupAnswer,
} from './second-factor-answers.ts';

const webauthnAnswer = { type: 'any', required: true } as const;
const passkeyId = { id: { type: 'integer', required: true } } as const;

/** The caller's factors. */
export const secondFactorStatusRoute = /* @__PURE__ */ route('GET', 'second-factor', 'token');
/** A new authenticator-app key (step-up first): the key, its otpauth URI and a QR code of it. */
export const startTotpRoute = /* @__PURE__ */ route('POST', 'second-factor/totp', 'token');
/** A code from the app confirms the key; the first factor of an account also answers its recovery codes. */
export const confirmTotpRoute = /* @__PURE__ */ route('POST', 'second-factor/totp/confirm', 'token', {
  body: { code: /* @__PURE__ */ s(16) },
});
export const removeTotpRoute = /* @__PURE__ */ route('DELETE', 'second-factor/totp', 'token', { status: 204 });
export const passkeyRegistrationOptionsRoute = /* @__PURE__ */ route('POST', 'second-factor/passkeys/options', 'token');
export const registerPasskeyRoute = /* @__PURE__ */ route('POST', 'second-factor/passkeys', 'token', {
  body: { name: /* @__PURE__ */ s(64), response: webauthnAnswer },
});
export const renamePasskeyRoute = /* @__PURE__ */ route('PATCH', 'second-factor/passkeys/:id', 'token', {
  params: passkeyId,
  body: { name: /* @__PURE__ */ s(64) },
  status: 204,
});
export const removePasskeyRoute = /* @__PURE__ */ route('DELETE', 'second-factor/passkeys/:id', 'token', {
  params: passkeyId,
  status: 204,
});
/** Ten new recovery codes (the old ones stop working), shown this once. */
export const newRecoveryCodesRoute = /* @__PURE__ */ route('POST', 'second-factor/recovery-codes', 'token');
/** Options for a passkey answering a sign-in's challenge. */
export const secondFactorPasskeyOptionsRoute = /* @__PURE__ */ route('POST', 'second-factor/passkey-options', 'none', {
  body: { mfa_challenge: /* @__PURE__ */ s() },
});
/** Finishes a sign-in: the challenge and an app code, a recovery code or a passkey answer. */
export const verifySecondFactorRoute = /* @__PURE__ */ route('POST', 'second-factor/verify', 'none', {
  body: {
    mfa_challenge: /* @__PURE__ */ s(),
    code: /* @__PURE__ */ opt(/* @__PURE__ */ s(32)),
    passkey: /* @__PURE__ */ opt(webauthnAnswer),
    interaction,
  },
});
export const passkeySignInOptionsRoute = /* @__PURE__ */ route('POST', 'passkeys/sign-in/options', 'none');
export const passkeySignInRoute = /* @__PURE__ */ route('POST', 'passkeys/sign-in', 'none', {
  body: {
    pid,
    response: webauthnAnswer,
    agreement_ids: { type: 'integer[]', required: false, maxLength: 64 },
    interaction,
  },
});
/** Step-up with the second factor: options for a passkey, then a code or a passkey answer. */
export const stepUpPasskeyOptionsRoute = /* @__PURE__ */ route('POST', 'step-up/passkey/options', 'token');
export const stepUpBySecondFactorRoute = /* @__PURE__ */ route('POST', 'step-up/second-factor', 'token', {
  body: { code: /* @__PURE__ */ opt(/* @__PURE__ */ s(32)), passkey: /* @__PURE__ */ opt(webauthnAnswer) },
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
