/** The application the pending return leads to, for the sign-in screens to name ("Signing in to …"). */
import { checkReturn, interactionDetails } from '@edupass/account/identity';
import type { InteractionApp } from '@edupass/protocol';
import { useEffect, useState } from 'react';
import { client } from './account.ts';
import { pendingAppReturn, type ReturnTarget, returnCheckOf } from './return-target.ts';

export type ReturnApp = Pick<InteractionApp, 'name' | 'logo_url'>;

/**
 * The interactions this page read whose application is first party. The server asks consent for
 * third-party applications only, so after sign-in such an interaction is completed without being
 * read again (screens/return-to-app.tsx): a sign-in to a product is one request shorter.
 */
const firstParty = new Map<string, ReturnApp>();

/** The first-party application of interaction `uid`, if this page read it (undefined: read it). */
export const firstPartyAppOf = (uid: string): ReturnApp | undefined => firstParty.get(uid);

const appOf = async (target: Exclude<ReturnTarget, { kind: 'path' }>): Promise<ReturnApp | undefined> => {
  if (target.kind === 'interaction') {
    const known = firstParty.get(target.uid);
    if (known !== undefined) return known;
    const { app } = await interactionDetails(client, target.uid);
    if (app.first_party) firstParty.set(target.uid, app);
    return app;
  }
  const checked = await checkReturn(client, returnCheckOf(target));
  return checked.app_name ? { name: checked.app_name, logo_url: checked.app_logo_url } : undefined;
};

export const useReturnApp = (): ReturnApp | undefined => {
  const [app, setApp] = useState<ReturnApp | undefined>(undefined);
  useEffect(() => {
    const target = pendingAppReturn();
    if (target === undefined) return;
    let live = true;
    appOf(target).then(
      (found) => live && setApp(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return app;
};
