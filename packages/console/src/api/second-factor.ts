/**
 * The operator's own second factor from the console: the sign-in's second step, and setting up an
 * authenticator app when the admin API answers E_14 (OPERATOR_MFA=required); through the account SDK's
 * second-factor calls on the console's client. Also the reset of a user's second factor.
 */
import { confirmTotp, startTotp, verifySecondFactor } from '@edupass/account/second-factor';
import { adminRoutes } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';
import { consoleClient } from './session.ts';

export { secondFactorChallengeOf as secondStepOf } from '@edupass/account/second-factor';

export const finishSignIn = async (challenge: string, code: string): Promise<void> => {
  await verifySecondFactor(consoleClient, { mfa_challenge: challenge, code });
};

export const startAppSetup = () => startTotp(consoleClient);

export const confirmAppSetup = (code: string) => confirmTotp(consoleClient, { code });

export const resetSecondFactor = (userId: number) =>
  adminCall(adminRoutes.resetSecondFactor, { params: { id: userId } });
