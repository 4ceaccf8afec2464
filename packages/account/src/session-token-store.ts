/**
 * Tokens in the tab's sessionStorage: they survive a reload of the page but not the tab, and another
 * tab starts signed out. For pages where one sign-in must not spread to other tabs (the operator
 * console); pair it with `crossTab: false`. Expiry is the memory store's, from when the set was kept.
 */
import type { TokenSet } from '@edupass/protocol';
import { parseTokenSet } from './token-set.ts';
import { type MemoryTokenStoreOptions, memoryTokenStore, type TokenStore } from './token-store.ts';

export interface SessionTokenStoreOptions extends MemoryTokenStoreOptions {
  /** The sessionStorage key. */
  key: string;
  /** @default globalThis.sessionStorage */
  storage?: Storage;
}

/** What is written: the token set and when it was kept (ms). */
interface Kept {
  tokens: TokenSet;
  at: number;
}

const read = (storage: Storage | undefined, key: string): Kept | undefined => {
  try {
    const kept = JSON.parse(storage?.getItem(key) ?? 'null') as Partial<Kept> | null;
    const tokens = parseTokenSet(kept?.tokens);
    return tokens && typeof kept?.at === 'number' ? { tokens, at: kept.at } : undefined;
  } catch {
    return undefined;
  }
};

export const sessionTokenStore = ({
  key,
  storage = globalThis.sessionStorage,
  now = Date.now,
}: SessionTokenStoreOptions): TokenStore => {
  /** The time a set is kept at: now, or the original time of the set read back after a reload. */
  let keptAt: number | undefined;
  const memory = memoryTokenStore({ now: () => keptAt ?? now() });
  const keep = ({ tokens, at }: Kept) => {
    keptAt = at;
    memory.set(tokens);
    keptAt = undefined;
  };
  const saved = read(storage, key);
  if (saved) keep(saved);
  const write = (kept: Kept | undefined) => {
    try {
      if (kept) storage?.setItem(key, JSON.stringify(kept));
      else storage?.removeItem(key);
    } catch {
      // Storage full or blocked: the tokens last as long as the page.
    }
  };
  return {
    get: memory.get,
    set: (tokens) => {
      const kept = { tokens, at: now() };
      keep(kept);
      write(kept);
    },
    clear: () => {
      memory.clear();
      write(undefined);
    },
  };
};
