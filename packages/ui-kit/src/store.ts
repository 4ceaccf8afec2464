/**
 * A value outside React that components read with `useSyncExternalStore`: `set` replaces it and tells
 * every subscriber. The first value is read on first use, so nothing runs at import.
 */
import { useSyncExternalStore } from 'react';

export interface Store<T> {
  get(): T;
  set(next: T): void;
  /** Calls `listener` after every `set`; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Whether anything is subscribed. */
  watched(): boolean;
}

export interface StoreHooks {
  /** When the first subscriber arrives (e.g. start listening to the browser). */
  onWatch?: () => void;
  /** When the last subscriber leaves. */
  onUnwatch?: () => void;
}

export const createStore = <T>(read: () => T, { onWatch, onUnwatch }: StoreHooks = {}): Store<T> => {
  let held: { value: T } | undefined;
  const listeners = new Set<() => void>();
  return {
    get: () => {
      held ??= { value: read() };
      return held.value;
    },
    set: (next) => {
      held = { value: next };
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      if (listeners.size === 0) onWatch?.();
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) onUnwatch?.();
      };
    },
    watched: () => listeners.size > 0,
  };
};

/** What a component needs to read a store: this helper's, or any other with the same two calls (the SDK's session). */
export type ReadableStore<T> = Pick<Store<T>, 'get' | 'subscribe'>;

/** The store's value, re-rendering on every change. */
export const useStore = <T>(store: ReadableStore<T>): T => useSyncExternalStore(store.subscribe, store.get, store.get);
