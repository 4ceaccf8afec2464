/** The application the pending return leads to, for the sign-in screens to name ("Signing in to …"). */
import { checkReturn, interactionDetails } from '@edupass/account/identity';
import type { InteractionApp } from '@edupass/protocol';
import { useEffect, useState } from 'react';
import { client } from './account.ts';
import { pendingAppReturn, type ReturnTarget, returnCheckOf } from './return-target.ts';

export type ReturnApp = Pick<InteractionApp, 'name' | 'logo_url'>;

const appOf = async (target: Exclude<ReturnTarget, { kind: 'path' }>): Promise<ReturnApp | undefined> => {
  if (target.kind === 'interaction') return (await interactionDetails(client, target.uid)).app;
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
