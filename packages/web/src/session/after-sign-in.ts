/**
 * Where a fresh sign-in goes: the agreement check first, then the page the visitor opened signed out
 * (a deep link) or the account centre. An application waiting for the user (return-target.ts) takes
 * over from there (app.tsx). The check comes before the sign-in is reported: it says whether the user
 * is a child, of whom nothing is reported.
 */
import type { ProductSignInInput } from '@edupass/account';
import { navigate } from '../router/history.ts';
import { getConsent, setChildSignedIn } from '../telemetry/consent.ts';
import { endFlowTimer, setTrackedUser, trackEvent } from '../telemetry/telemetry.ts';
import { client } from './account.ts';
import { checkAgreements, holdGateWhile, isChild } from './gate.ts';
import { clearReturn, landingPath, pendingAppReturn } from './return-target.ts';

const reportSignIn = (method: string) => {
  const user = client.session.get().user;
  setTrackedUser(user ? String(user.id) : undefined);
  trackEvent('sign_in', { method });
  endFlowTimer('sign_in_flow', { method });
};

export const afterSignIn = async (method: string): Promise<void> => {
  await checkAgreements();
  reportSignIn(method);
  navigate(landingPath(), { replace: true });
};

/** Where a visitor signed in already goes on to (a sign-in step opened again): as after a sign-in. */
export const goOnSignedIn = async (): Promise<void> => {
  await checkAgreements();
  navigate(landingPath(), { replace: true });
};

/**
 * A sign-in made for the first-party product this browser waits on (the sign-in screen's read of the
 * interaction said first party): `signIn` names the product's sign-in, and where the server completed
 * it (`redirect_to`) the sign-in is reported and the browser goes straight on to the product — one call
 * where the return made four (the sign-in, the agreements gate's two reads, the completion). Every
 * sign-in of these screens goes through it: password, SMS and e-mail codes, the second step, a
 * passkey, a login card, the return from WeChat or QQ (an account signed in or made). The gate's
 * questions wait meanwhile, asked only if the page stays. Answers the sign-in's result when the page
 * stays (the screen goes on as after any sign-in), undefined when it leaves.
 */
export const signInForProduct = <R extends object>(
  signIn: (product: ProductSignInInput) => Promise<R>,
  method: string,
): Promise<R | undefined> => {
  const pending = pendingAppReturn();
  const named = pending?.kind === 'interaction' && pending.firstParty !== undefined ? { interaction: pending.uid } : {};
  const signedIn = signIn(named);
  // A sign-in answers `redirect_to` when it completed the product's; a WeChat or QQ account not
  // linked yet answers its ticket instead, and the page stays.
  const left = signedIn.then(async ({ redirect_to }: { redirect_to?: string }) => {
    if (redirect_to === undefined) return false;
    // Reported as any sign-in where this device agreed to usage reports: only the user's age band is
    // asked first (a child is never reported), not the agreements the server has found signed.
    if (getConsent() === 'granted') setChildSignedIn(await isChild());
    reportSignIn(method);
    clearReturn();
    window.location.assign(redirect_to);
    return true;
  });
  return holdGateWhile(left).then((gone) => (gone ? undefined : signedIn));
};
