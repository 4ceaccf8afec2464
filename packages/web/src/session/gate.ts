/**
 * What must happen before the signed-in user sees anything else: agreements published since they
 * last signed. Checked on start and after every sign-in.
 */
import { listAgreementsToSign } from '@edupass/account';
import type { Agreement } from '@edupass/protocol';
import { createStore, useStore } from '@edupass/ui-kit/store.ts';
import { client } from './account.ts';

interface GateState {
  /** False until the start-up check has answered (signed-out visitors are ready at once). */
  ready: boolean;
  toSign: readonly Agreement[];
}

const gate = createStore<GateState>(() => ({ ready: false, toSign: [] }));

/** Asks the server which agreements the signed-in user has yet to sign. */
export const checkAgreements = async (): Promise<void> => {
  if (client.session.get().status !== 'signed-in') {
    gate.set({ ready: true, toSign: [] });
    return;
  }
  try {
    gate.set({ ready: true, toSign: await listAgreementsToSign(client) });
  } catch {
    // A dead session clears itself in the SDK; anything else must not lock the user out.
    gate.set({ ready: true, toSign: [] });
  }
};

export const agreementsSigned = (): void => gate.set({ ready: true, toSign: [] });

export const useGate = (): GateState => useStore(gate);
