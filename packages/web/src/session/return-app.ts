/**
 * The application the pending return leads to, for the sign-in screens to name ("Signing in to …").
 * An interaction's application read and found first party is kept with the return (return-target.ts
 * `noteFirstPartyApp`): the server asks consent for third-party applications only, so after sign-in
 * such an interaction is completed without being read again (screens/return-to-app.tsx), and a sign-in
 * to a product is one request shorter.
 */
import { checkReturn, interactionDetails } from '@edupass/account/identity';
import { useEffect, useState } from 'react';
import { client } from './account.ts';
import {
  noteFirstPartyApp,
  pendingAppReturn,
  type ReturnApp,
  type ReturnTarget,
  returnCheckOf,
} from './return-target.ts';

const appOf = async (target: Exclude<ReturnTarget, { kind: 'path' }>): Promise<ReturnApp | undefined> => {
  if (target.kind === 'interaction') {
    if (target.firstParty !== undefined) return target.firstParty;
    const { app } = await interactionDetails(client, target.uid);
    if (app.first_party) noteFirstPartyApp(target.uid, app);
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
