/**
 * The visitor's choice about usage and error reports, remembered in localStorage; and whether a child
 * under 14 is signed in, who is never asked and never reported on (`child`), whatever this device
 * chose before: a classroom tablet passes from a teacher who agreed to a pupil who cannot.
 */
import { createStore, type ReadableStore, useStore } from '@edupass/ui-kit/store.ts';

export type ConsentChoice = 'granted' | 'denied' | 'unset';
/** The choice in force: the device's, or `child` (off, and not asked) while a child is signed in. */
export type ConsentState = ConsentChoice | 'child';

const KEY = 'edupass.consent';

const read = (): ConsentChoice => {
  try {
    const saved = window.localStorage.getItem(KEY);
    return saved === 'granted' || saved === 'denied' ? saved : 'unset';
  } catch {
    return 'unset';
  }
};

const held = createStore(() => ({ choice: read(), child: false }));

export const getConsent = (): ConsentState => (held.get().child ? 'child' : held.get().choice);

/** The choice in force, read by React (a string, so the same value renders nothing again). */
const inForce: ReadableStore<ConsentState> = { get: getConsent, subscribe: held.subscribe };

export const setConsent = (next: ConsentChoice): void => {
  try {
    if (next === 'unset') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, next);
  } catch {
    // Remembered for this page only.
  }
  held.set({ ...held.get(), choice: next });
};

/** Whether the signed-in user is a child under 14 (the agreements gate asks with every session). */
export const setChildSignedIn = (child: boolean): void => {
  if (held.get().child !== child) held.set({ ...held.get(), child });
};

export const onConsent = (listener: () => void): (() => void) => held.subscribe(listener);

export const useConsent = (): ConsentState => useStore(inForce);
