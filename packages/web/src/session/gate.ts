/**
 * What must happen before the signed-in user sees anything else: agreements published since they
 * last signed (none for a pupil whose school signed for them), and whether the user is a child under
 * 14, who is never asked about usage reports (telemetry/consent.ts). The answer holds for the session it was asked for: when the session changes (a sign-in,
 * a sign-out, another account) the gate is not ready again until the server has answered for the new
 * one, so nothing (the return to an application above all) runs on the previous visitor's "nothing to
 * sign". The server refuses to finish a sign-in with agreements left to sign as well (E_15).
 */
import { listAgreementsToSign } from '@edupass/account';
import { callRoute } from '@edupass/account/custom-calls';
import { type Agreement, ownConsentRoute } from '@edupass/protocol';
import { createStore, useStore } from '@edupass/ui-kit/store.ts';
import { useEffect } from 'react';
import { setChildSignedIn } from '../telemetry/consent.ts';
import { client } from './account.ts';

interface GateState {
  /** False until the server has answered for the current session (signed-out visitors are ready at once). */
  ready: boolean;
  toSign: readonly Agreement[];
}

interface Answered {
  toSign: readonly Agreement[];
  /** The session the answer is for (sessionKey). */
  checkedFor: string | undefined;
}

const gate = createStore<Answered>(() => ({ toSign: [], checkedFor: undefined }));

/** Which session an answer belongs to: the visitor, or a signed-in user (by id, once known). */
const sessionKey = () => {
  const { status, user } = client.session.get();
  return status === 'signed-in' ? `user:${user?.id ?? '?'}` : 'visitor';
};

/** Bands under 14, whose consent is a guardian's (or the school's) to give. */
const CHILD_BANDS = new Set(['under_8', '8_13']);

/** Whether the signed-in user is a child under 14; an unanswered question counts as a child (not asked). */
export const isChild = async (): Promise<boolean> => {
  try {
    const own = (await callRoute(client, ownConsentRoute)) as { age_band?: string | null };
    return CHILD_BANDS.has(own.age_band ?? '');
  } catch {
    return true;
  }
};

const ask = async (key: string): Promise<void> => {
  let toSign: readonly Agreement[] = [];
  const child = isChild();
  try {
    toSign = await listAgreementsToSign(client);
  } catch {
    // A dead session clears itself in the SDK; anything else must not lock the user out (the server
    // still refuses to finish a sign-in with agreements left to sign).
  }
  // An answer for a session that has since changed is not this session's: its own check answers.
  if (sessionKey() !== key) return;
  setChildSignedIn(await child);
  if (sessionKey() === key) gate.set({ toSign, checkedFor: key });
};

/** The check under way, shared by everyone asking for the same session meanwhile. */
let inFlight: { key: string; answer: Promise<void> } | undefined;

/** A sign-in that may leave the page at once, for an application: true once it does. */
let held: Promise<boolean> | undefined;

/**
 * Holds the gate's questions while a sign-in that may leave the page for an application is under
 * way (one that completes the application's sign-in itself: after-sign-in.ts `signInForProduct`):
 * asked after it when it stays, never when it left.
 */
export const holdGateWhile = (leaving: Promise<boolean>): Promise<boolean> => {
  const outcome = leaving.catch(() => false);
  held = outcome;
  void outcome.then((left) => {
    if (!left && held === outcome) held = undefined;
  });
  return leaving;
};

/** Asks the server which agreements the signed-in user has yet to sign. */
export const checkAgreements = (): Promise<void> => {
  if (held) return held.then((left) => (left ? undefined : checkAgreements()));
  const key = sessionKey();
  if (key === 'visitor') {
    setChildSignedIn(false);
    gate.set({ toSign: [], checkedFor: key });
    return Promise.resolve();
  }
  if (inFlight?.key === key) return inFlight.answer;
  const answer = ask(key).finally(() => {
    if (inFlight?.answer === answer) inFlight = undefined;
  });
  inFlight = { key, answer };
  return answer;
};

/** From start-up on: every change of session asks again before the gate is ready. */
export const watchSessionForGate = (): (() => void) =>
  client.session.subscribe(() => {
    if (sessionKey() !== gate.get().checkedFor) void checkAgreements();
  });

export const agreementsSigned = (): void => gate.set({ toSign: [], checkedFor: sessionKey() });

export const useGate = (): GateState => {
  const { toSign, checkedFor } = useStore(gate);
  const ready = checkedFor === sessionKey();
  // A screen waiting on the gate makes sure the current session is being asked about (shared with a
  // check under way): an answer dropped because the session changed meanwhile never leaves it waiting.
  useEffect(() => {
    if (!ready) void checkAgreements();
  }, [ready]);
  return { ready, toSign: ready ? toSign : [] };
};
