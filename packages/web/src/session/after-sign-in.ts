/**
 * Where a fresh sign-in goes: the agreement check first, then the page the visitor opened signed out
 * (a deep link) or the account centre. An application waiting for the user (return-target.ts) takes
 * over from there (app.tsx). The check comes before the sign-in is reported: it says whether the user
 * is a child, of whom nothing is reported.
 */
import { navigate } from '../router/history.ts';
import { endFlowTimer, setTrackedUser, trackEvent } from '../telemetry/telemetry.ts';
import { client } from './account.ts';
import { checkAgreements } from './gate.ts';
import { landingPath } from './return-target.ts';

export const afterSignIn = async (method: string): Promise<void> => {
  await checkAgreements();
  const user = client.session.get().user;
  setTrackedUser(user ? String(user.id) : undefined);
  trackEvent('sign_in', { method });
  endFlowTimer('sign_in_flow', { method });
  navigate(landingPath(), { replace: true });
};

/** Where a visitor signed in already goes on to (a sign-in step opened again): as after a sign-in. */
export const goOnSignedIn = async (): Promise<void> => {
  await checkAgreements();
  navigate(landingPath(), { replace: true });
};
