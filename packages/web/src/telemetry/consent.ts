/** The visitor's choice about usage and error reports, remembered in localStorage. */
import { useSyncExternalStore } from 'react';

export type ConsentChoice = 'granted' | 'denied' | 'unset';

const KEY = 'edupass.consent';
const listeners = new Set<() => void>();

const read = (): ConsentChoice => {
  try {
    const saved = window.localStorage.getItem(KEY);
    return saved === 'granted' || saved === 'denied' ? saved : 'unset';
  } catch {
    return 'unset';
  }
};

let choice: ConsentChoice | undefined;

export const getConsent = (): ConsentChoice => {
  choice ??= read();
  return choice;
};

export const setConsent = (next: ConsentChoice): void => {
  choice = next;
  try {
    if (next === 'unset') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, next);
  } catch {
    // Remembered for this page only.
  }
  for (const listener of [...listeners]) listener();
};

export const onConsent = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useConsent = (): ConsentChoice => useSyncExternalStore(onConsent, getConsent, getConsent);
