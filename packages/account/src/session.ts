import type { UserInfo } from '@edupass/protocol';
import type { AccountClient } from './client.ts';

/**
 * - `signed-in`: tokens are held (or a sign-in just succeeded).
 * - `signed-out`: no tokens, or the server ended the session.
 * - `unknown`: without `auth_version` the session lives in an HttpOnly cookie the SDK cannot read; it
 *   becomes known on the first sign-in, profile read or refusal.
 */
export type SessionStatus = 'signed-in' | 'signed-out' | 'unknown';

export interface Session {
  status: SessionStatus;
  /** The signed-in user, once a sign-in or `getProfile` has told it. */
  user: UserInfo | null;
}

/** A subscribable view of the session; snapshots are immutable and change identity only on change. */
export interface SessionStore {
  get(): Session;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** @internal Used by the SDK when tokens or the user change. */
  update(next: Partial<Session>): void;
}

export const createSessionStore = (initial: Session, onFirstSubscribe?: () => void): SessionStore => {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    subscribe: (listener) => {
      if (listeners.size === 0) onFirstSubscribe?.();
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    update: (next) => {
      const merged = { ...current, ...next };
      if (merged.status === current.status && merged.user === current.user) return;
      current = merged;
      for (const listener of [...listeners]) listener();
    },
  };
};

/** The current session of a client. */
export const getSession = (client: AccountClient): Session => client.session.get();

/** Subscribes to session changes (sign-in, refresh in another tab, sign-out…); returns the unsubscribe function. */
export const onChange = (client: AccountClient, listener: (session: Session) => void): (() => void) =>
  client.session.subscribe(() => listener(client.session.get()));
