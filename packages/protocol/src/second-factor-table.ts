/** The second factor's part of the route table (routes.ts): step-up with it, setting it up, signing in with it. */
import { loginResultAnswer } from './account-answers.ts';
import { NO_CONTENT as none } from './answer-schema.ts';
import { described } from './described-route.ts';
import {
  firstRecoveryCodesAnswer,
  passkeyAddedAnswer,
  recoveryCodesAnswer,
  secondFactorStatusAnswer,
  totpSetupAnswer,
  webauthnOptionsAnswer,
} from './second-factor-answers.ts';
import {
  confirmTotpRoute,
  newRecoveryCodesRoute,
  passkeyRegistrationOptionsRoute,
  passkeySignInOptionsRoute,
  passkeySignInRoute,
  registerPasskeyRoute,
  removePasskeyRoute,
  removeTotpRoute,
  renamePasskeyRoute,
  secondFactorPasskeyOptionsRoute,
  secondFactorStatusRoute,
  startTotpRoute,
  stepUpBySecondFactorRoute,
  stepUpPasskeyOptionsRoute,
  verifySecondFactorRoute,
} from './second-factor-routes.ts';

const signIn = loginResultAnswer;

export const secondFactorTable = {
  stepUpPasskeyOptions: described(
    stepUpPasskeyOptionsRoute,
    'Options for a passkey proving it is you',
    webauthnOptionsAnswer,
  ),
  stepUpBySecondFactor: described(
    stepUpBySecondFactorRoute,
    'Prove it is you with an app code, a recovery code or a passkey',
    none,
  ),
  // Second factor
  secondFactorStatus: described(
    secondFactorStatusRoute,
    "The caller's authenticator app, passkeys and recovery codes left",
    secondFactorStatusAnswer,
  ),
  startTotp: described(startTotpRoute, 'A new authenticator-app key with its QR code (step-up first)', totpSetupAnswer),
  confirmTotp: described(
    confirmTotpRoute,
    'Confirm the app with a code; the first factor also answers recovery codes',
    firstRecoveryCodesAnswer,
  ),
  removeTotp: described(removeTotpRoute, 'Remove the authenticator app (step-up first)', none),
  passkeyRegistrationOptions: described(
    passkeyRegistrationOptionsRoute,
    'Options for registering a passkey (step-up first)',
    webauthnOptionsAnswer,
  ),
  registerPasskey: described(registerPasskeyRoute, 'Register a passkey under a name', passkeyAddedAnswer),
  renamePasskey: described(renamePasskeyRoute, 'Rename a passkey', none),
  removePasskey: described(removePasskeyRoute, 'Remove a passkey (step-up first)', none),
  newRecoveryCodes: described(
    newRecoveryCodesRoute,
    'Ten new recovery codes, shown once (step-up first)',
    recoveryCodesAnswer,
  ),
  secondFactorPasskeyOptions: described(
    secondFactorPasskeyOptionsRoute,
    "Options for a passkey answering a sign-in's challenge",
    webauthnOptionsAnswer,
  ),
  verifySecondFactor: described(
    verifySecondFactorRoute,
    'Finish a sign-in with its challenge and a second factor',
    signIn,
  ),
  passkeySignInOptions: described(
    passkeySignInOptionsRoute,
    'Options for signing in with a passkey alone',
    webauthnOptionsAnswer,
  ),
  passkeySignIn: described(passkeySignInRoute, 'Sign in with a passkey alone', signIn),
} as const;
