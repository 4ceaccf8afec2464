/**
 * The location as a subscribable store over the History API: `navigate` pushes, the back button
 * pops, and components read it with `useLocation` (useSyncExternalStore).
 */
import { createStore, useStore } from '@edupass/ui-kit/store.ts';
import { requestFocus } from './focus.ts';

export interface Location {
  path: string;
  query: URLSearchParams;
}

const read = (): Location => ({ path: window.location.pathname, query: new URLSearchParams(window.location.search) });

const notify = () => {
  const next = read();
  if (current.watched()) requestFocus();
  current.set(next);
};

const current = createStore(read, {
  onWatch: () => window.addEventListener('popstate', notify),
  onUnwatch: () => window.removeEventListener('popstate', notify),
});

export const getLocation = (): Location => current.get();

/** Goes to `to` (a path with optional query); `replace` keeps the back button from returning here. */
export const navigate = (to: string, { replace = false }: { replace?: boolean } = {}): void => {
  const target = new URL(to, window.location.href);
  const here = window.location.pathname + window.location.search;
  if (target.pathname + target.search === here) return;
  if (replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  window.scrollTo(0, 0);
  requestFocus();
  notify();
};

/** The screen for the same address chosen again: something it depends on besides the address changed. */
export const chooseAgain = (): void => notify();

export const useLocation = (): Location => useStore(current);
