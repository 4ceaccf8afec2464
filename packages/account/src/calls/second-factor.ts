import {
  confirmTotpRoute,
  isRecord,
  type LoginResult,
  newRecoveryCodesRoute,
  passkeyRegistrationOptionsRoute,
  passkeySignInOptionsRoute,
  passkeySignInRoute,
  type RecoveryCodes,
  registerPasskeyRoute,
  removePasskeyRoute,
  removeTotpRoute,
  renamePasskeyRoute,
  type SecondFactorChallenge,
  type SecondFactorStatus,
  secondFactorPasskeyOptionsRoute,
  secondFactorStatusRoute,
  startTotpRoute,
  stepUpBySecondFactorRoute,
  stepUpPasskeyOptionsRoute,
  type TotpSetup,
  verifySecondFactorRoute,
  type WireRoute,
} from '@edupass/protocol';
import { anonymous, type Call, defineCall, type PlainCall } from '../call.ts';
import type { AccountClient } from '../client.ts';
import { type AuthError, isAuthError } from '../errors.ts';
import { nothing, object, signIn } from '../shapes.ts';
import { withToken } from '../with-token.ts';
import type { ProductSignInInput } from './sign-in.ts';

/**
 * WebAuthn options and answers as JSON (`PublicKeyCredentialCreationOptionsJSON`,
 * `PublicKeyCredentialRequestOptionsJSON` and the credential's `toJSON()`), passed through as they are:
 * hand them to `navigator.credentials` (or @simplewebauthn/browser) and back.
 */
export type WebAuthnJSON = Record<string, unknown>;

export type { PasskeySummary, SecondFactorChallenge, SecondFactorStatus, TotpSetup } from '@edupass/protocol';

/** A proof of the second factor: an app code, a recovery code, or a passkey's answer. */
export interface SecondFactorProof {
  code?: string;
  passkey?: WebAuthnJSON;
}

/**
 * The challenge of a sign-in that needs its second step: a sign-in call rejected with
 * MFA_REQUIRED (69) carries it; undefined for any other error.
 */
export const secondFactorChallengeOf = (error: unknown): SecondFactorChallenge | undefined => {
  const body = isAuthError(error) && error.name === 'MFA_REQUIRED' ? (error as AuthError).body : undefined;
  if (!isRecord(body) || typeof body.mfa_challenge !== 'string' || !Array.isArray(body.mfa_methods)) return undefined;
  return { mfa_challenge: body.mfa_challenge, mfa_methods: body.mfa_methods };
};

/** Finishes a sign-in with its challenge and a proof; resolves like any sign-in (tokens kept). */
export const verifySecondFactor: Call<SecondFactorProof & { mfa_challenge: string } & ProductSignInInput, LoginResult> =
  /* @__PURE__ */ defineCall(anonymous, verifySecondFactorRoute, signIn);

/** Options for a passkey answering a sign-in's challenge (only that account's passkeys). */
export const secondFactorPasskeyOptions: Call<{ mfa_challenge: string }, WebAuthnJSON> = /* @__PURE__ */ defineCall(
  anonymous,
  secondFactorPasskeyOptionsRoute,
  object,
);

/** Options for signing in with a passkey alone (any passkey of this site: discoverable credentials). */
export const passkeySignInOptions: PlainCall<WebAuthnJSON> = /* @__PURE__ */ defineCall(
  anonymous,
  passkeySignInOptionsRoute,
  object,
);

/** Signs in with a passkey's answer to those options. */
export const passkeySignIn: Call<
  { response: WebAuthnJSON; agreement_ids?: number[] } & ProductSignInInput,
  LoginResult
> = /* @__PURE__ */ defineCall(anonymous, passkeySignInRoute, signIn);

/** The caller's authenticator app, passkeys and recovery codes left. */
export const secondFactorStatus: PlainCall<SecondFactorStatus> = /* @__PURE__ */ defineCall(
  withToken,
  secondFactorStatusRoute,
  object,
);

/** A new authenticator-app key with its QR code; rejects with STEP_UP_REQUIRED without a recent proof. */
export const startTotp: PlainCall<TotpSetup> = /* @__PURE__ */ defineCall(withToken, startTotpRoute, object);

/** Confirms the app with a code from it; the account's first factor also answers its recovery codes. */
export const confirmTotp: Call<{ code: string }, Partial<RecoveryCodes>> = /* @__PURE__ */ defineCall(
  withToken,
  confirmTotpRoute,
  object,
);

export const removeTotp: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, removeTotpRoute, nothing);

/** Options for registering a passkey (step-up first). */
export const passkeyRegistrationOptions: PlainCall<WebAuthnJSON> = /* @__PURE__ */ defineCall(
  withToken,
  passkeyRegistrationOptionsRoute,
  object,
);

/** Keeps a new passkey under `name`; the account's first factor also answers its recovery codes. */
export const registerPasskey: Call<{ name: string; response: WebAuthnJSON }, { id: number } & Partial<RecoveryCodes>> =
  /* @__PURE__ */ defineCall(withToken, registerPasskeyRoute, object);

const withId = (route: WireRoute, id: number): WireRoute => ({ ...route, path: route.path.replace(':id', String(id)) });

export const renamePasskey = (client: AccountClient, input: { id: number; name: string }): Promise<void> =>
  defineCall<{ name: string }, void>(withToken, withId(renamePasskeyRoute, input.id), nothing)(client, input);

export const removePasskey = (client: AccountClient, input: { id: number }): Promise<void> =>
  defineCall<Record<string, never>, void>(withToken, withId(removePasskeyRoute, input.id), nothing)(client);

/** Ten new recovery codes (the old ones stop working), shown this once. */
export const newRecoveryCodes: PlainCall<RecoveryCodes> = /* @__PURE__ */ defineCall(
  withToken,
  newRecoveryCodesRoute,
  object,
);

/** Options for a passkey proving the session (step-up). */
export const stepUpPasskeyOptions: PlainCall<WebAuthnJSON> = /* @__PURE__ */ defineCall(
  withToken,
  stepUpPasskeyOptionsRoute,
  object,
);

/** Proves the session with an app code, a recovery code or a passkey answer. */
export const stepUpBySecondFactor: Call<SecondFactorProof, void> = /* @__PURE__ */ defineCall(
  withToken,
  stepUpBySecondFactorRoute,
  nothing,
);
