/** React bindings: a thin layer over the session store (`useSyncExternalStore`). */
import { createContext, createElement, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { AccountClient } from './client.ts';
import { currentClient } from './instance.ts';
import type { Session } from './session.ts';

const ClientContext = /* @__PURE__ */ createContext<AccountClient | undefined>(undefined);

export interface AuthProviderProps {
  /** The client the subtree uses. @default the client of the last `init` */
  client?: AccountClient;
  children?: ReactNode;
}

export const AuthProvider = ({ client, children }: AuthProviderProps): ReactNode =>
  createElement(ClientContext.Provider, { value: client ?? currentClient() }, children);

/** The client of the nearest `AuthProvider`, else the one of the last `init`. */
export const useAccountClient = (): AccountClient => useContext(ClientContext) ?? currentClient();

/** The current session; re-renders on sign-in, sign-out and changes made in other tabs. */
export const useSession = (): Session => {
  const { session } = useAccountClient();
  return useSyncExternalStore(session.subscribe, session.get, session.get);
};
