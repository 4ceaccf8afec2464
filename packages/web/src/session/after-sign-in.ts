/** Where a fresh sign-in goes: the agreement check first, then the account centre. */
import { navigate } from '../router/history.ts';
import { endFlowTimer, setTrackedUser, trackEvent } from '../telemetry/telemetry.ts';
import { client } from './account.ts';
import { checkAgreements } from './gate.ts';

export const afterSignIn = async (method: string): Promise<void> => {
  const user = client.session.get().user;
  setTrackedUser(user ? String(user.id) : undefined);
  trackEvent('sign_in', { method });
  endFlowTimer('sign_in_flow', { method });
  await checkAgreements();
  navigate('/account', { replace: true });
};
