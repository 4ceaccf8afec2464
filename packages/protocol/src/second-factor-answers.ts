/**
 * What the second-factor calls answer (second-factor-routes.ts exports their types): the response
 * schemas of the API docs, apart from the routes so client bundles carry none of them.
 */
import { boolean, integer, list, nullable, object, type Schema, text } from './answer-schema.ts';

const recoveryCodes = list(text());

export const passkeySummaryAnswer = object({
  id: integer(),
  name: text(),
  created_at: integer(),
  last_used_at: nullable(integer()),
});

/** `GET …/second-factor`; `required`: the account must keep a second factor (operators, OPERATOR_MFA=required). */
export const secondFactorStatusAnswer = object({
  totp: boolean(),
  passkeys: list(passkeySummaryAnswer),
  recovery_codes_left: integer(),
  required: boolean(),
});

/** A new authenticator-app key, its otpauth URI and a QR code of it (SVG). */
export const totpSetupAnswer = object({ secret: text(), uri: text(), qr_svg: text() });

/** Recovery codes, answered only when they are made. */
export const recoveryCodesAnswer = object({ recovery_codes: recoveryCodes });

/** The first factor of an account also answers its recovery codes. */
export const firstRecoveryCodesAnswer = object({}, { recovery_codes: recoveryCodes });

export const passkeyAddedAnswer = object({ id: integer() }, { recovery_codes: recoveryCodes });

/** WebAuthn options as @simplewebauthn/server makes them (the JSON the browser's WebAuthn call takes). */
export const webauthnOptionsAnswer: Schema<object> = {
  type: 'object',
  required: ['challenge'],
  properties: { challenge: text() },
  additionalProperties: true,
  description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON',
};
