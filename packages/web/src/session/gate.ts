/**
 * What must happen before the signed-in user sees anything else: agreements published since they
 * last signed. Checked on start and after every sign-in.
 */
import { listAgreementsToSign } from '@edupass/account';
import type { Agreement } from '@edupass/protocol';
import { useSyncExternalStore } from 'react';
import { client } from './account.ts';

interface GateState {
  /** False until the start-up check has answered (signed-out visitors are ready at once). */
  ready: boolean;
  toSign: readonly Agreement[];
}

let state: GateState = { ready: false, toSign: [] };
const listeners = new Set<() => void>();
const set = (next: GateState) => {
  state = next;
  for (const listener of [...listeners]) listener();
};

/** Asks the server which agreements the signed-in user has yet to sign. */
export const checkAgreements = async (): Promise<void> => {
  if (client.session.get().status !== 'signed-in') {
    set({ ready: true, toSign: [] });
    return;
  }
  try {
    set({ ready: true, toSign: await listAgreementsToSign(client) });
  } catch {
    // A dead session clears itself in the SDK; anything else must not lock the user out.
    set({ ready: true, toSign: [] });
  }
};

export const agreementsSigned = (): void => set({ ready: true, toSign: [] });

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const get = () => state;

export const useGate = (): GateState => useSyncExternalStore(subscribe, get, get);
