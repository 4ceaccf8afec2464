import type { TokenSet } from '@edupass/protocol';

/** The tokens a store holds now; a value past its lifetime is simply absent. */
export interface StoredTokens {
  access?: string;
  type?: string;
  refresh?: string;
}

/** Where the SDK keeps the token set. Cookies in browsers, memory in Node; anything else behind this. */
export interface TokenStore {
  get(): StoredTokens;
  /** Keeps the access token and its type for `access.expires_in` seconds, the refresh token for `refresh.expires_in`. */
  set(tokens: TokenSet): void;
  clear(): void;
}

export interface MemoryTokenStoreOptions {
  /** Clock in milliseconds. @default Date.now */
  now?: () => number;
}

/** Tokens in memory, expiring like cookies with a max age. For Node, tests and workers. */
export const memoryTokenStore = ({ now = Date.now }: MemoryTokenStoreOptions = {}): TokenStore => {
  let held: { tokens: TokenSet; at: number } | undefined;
  const alive = (expiresIn: number) => held !== undefined && now() < held.at + expiresIn * 1000;
  return {
    get: () => {
      if (!held) return {};
      const { access, refresh } = held.tokens;
      return {
        ...(alive(access.expires_in) && { access: access.token, type: access.type }),
        ...(alive(refresh.expires_in) && { refresh: refresh.token }),
      };
    },
    set: (tokens) => {
      held = { tokens, at: now() };
    },
    clear: () => {
      held = undefined;
    },
  };
};
