/**
 * The operator's own second factor from the console: the sign-in's second step, and setting up an
 * authenticator app when the admin API answers E_14 (OPERATOR_MFA=required). Also the reset of a
 * user's second factor.
 */
import {
  adminRoutes,
  confirmTotpRoute,
  type RecoveryCodes,
  type SecondFactorChallenge,
  startTotpRoute,
  type TotpSetup,
  verifySecondFactorRoute,
} from '@edupass/protocol';
import { adminFetch } from './admin-fetch.ts';
import { isConsoleApiError } from './console-error.ts';
import { signInAt } from './session.ts';

/** The challenge of a sign-in that needs its second step (E_11), else undefined. */
export const secondStepOf = (error: unknown): SecondFactorChallenge | undefined => {
  if (!isConsoleApiError(error) || error.code !== 'E_11') return undefined;
  const body = error.body as Partial<SecondFactorChallenge> | undefined;
  return typeof body?.mfa_challenge === 'string' && Array.isArray(body.mfa_methods)
    ? { mfa_challenge: body.mfa_challenge, mfa_methods: body.mfa_methods }
    : undefined;
};

export const finishSignIn = (challenge: string, code: string) =>
  signInAt(verifySecondFactorRoute.path, { mfa_challenge: challenge, code });

export const startAppSetup = async () => (await adminFetch(startTotpRoute.path, { method: 'POST' })) as TotpSetup;

export const confirmAppSetup = async (code: string) =>
  (await adminFetch(confirmTotpRoute.path, { method: 'POST', body: { code } })) as Partial<RecoveryCodes>;

export const resetSecondFactor = (userId: number) =>
  adminFetch(adminRoutes.resetSecondFactor.path.replace(':id', String(userId)), { method: 'POST' });
