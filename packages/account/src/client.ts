import { type AccountConfig, type ResolvedConfig, resolveConfig } from './config.ts';
import { cookieTokenStore } from './cookies.ts';
import { browserDocument } from './globals.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { createSessionStore, type SessionStore } from './session.ts';
import { listenToTabs } from './tab-sync.ts';
import { memoryTokenStore, type TokenStore } from './token-store.ts';

/** The SDK's state for one product: configuration, token store and session. Pass it to every call. */
export interface AccountClient {
  readonly config: ResolvedConfig;
  readonly tokens: TokenStore;
  readonly session: SessionStore;
  readonly logger: Logger;
}

/**
 * Checks the config and builds a client. Nothing starts here: the tab channel opens on the first session
 * subscriber or token change.
 * @throws AuthError code -1 'Auth init fail.Check init params.'
 */
export const createAccountClient = (config: AccountConfig): AccountClient => {
  const inBrowser = browserDocument() !== undefined;
  const resolved = { crossTab: inBrowser, ...resolveConfig(config) };
  const tokens =
    config.storage ??
    (inBrowser ? cookieTokenStore({ env: resolved.env, domain: resolved.domain }) : memoryTokenStore());
  const held = tokens.get();
  const client: AccountClient = {
    config: resolved,
    tokens,
    logger: config.logger ?? consoleLogger,
    session: createSessionStore(
      {
        status:
          resolved.auth_version === undefined ? 'unknown' : held.access || held.refresh ? 'signed-in' : 'signed-out',
        user: null,
      },
      () => listenToTabs(client),
    ),
  };
  return client;
};
