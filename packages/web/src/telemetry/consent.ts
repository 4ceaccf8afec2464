/** The visitor's choice about usage and error reports, remembered in localStorage. */
import { createStore, useStore } from '@edupass/ui-kit/store.ts';

export type ConsentChoice = 'granted' | 'denied' | 'unset';

const KEY = 'edupass.consent';

const read = (): ConsentChoice => {
  try {
    const saved = window.localStorage.getItem(KEY);
    return saved === 'granted' || saved === 'denied' ? saved : 'unset';
  } catch {
    return 'unset';
  }
};

const consent = createStore(read);

export const getConsent = (): ConsentChoice => consent.get();

export const setConsent = (next: ConsentChoice): void => {
  try {
    if (next === 'unset') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, next);
  } catch {
    // Remembered for this page only.
  }
  consent.set(next);
};

export const onConsent = (listener: () => void): (() => void) => consent.subscribe(listener);

export const useConsent = (): ConsentChoice => useStore(consent);
