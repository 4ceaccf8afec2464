import type { TokenSet } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { routePath, sessionTokenStore } from './custom-calls.ts';

const tokens: TokenSet = {
  access: { token: 'a.b.c', type: 'Bearer', expires_in: 900 },
  refresh: { token: 'r-1', expires_in: 3_600 },
};

/** The part of sessionStorage a store uses, over a Map. */
const fakeStorage = (): Storage => {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
};

describe('sessionTokenStore', () => {
  it('keeps the set in the storage, and a store opened later (a reload) reads it back', () => {
    const storage = fakeStorage();
    let now = 1_000_000;
    sessionTokenStore({ key: 'k', storage, now: () => now }).set(tokens);
    now += 60_000;
    expect(sessionTokenStore({ key: 'k', storage, now: () => now }).get()).toEqual({
      access: 'a.b.c',
      type: 'Bearer',
      refresh: 'r-1',
    });
  });

  it('counts lifetimes from when the set was kept, across reloads', () => {
    const storage = fakeStorage();
    let now = 1_000_000;
    sessionTokenStore({ key: 'k', storage, now: () => now }).set(tokens);
    now += 901_000;
    const reloaded = sessionTokenStore({ key: 'k', storage, now: () => now });
    expect(reloaded.get()).toEqual({ refresh: 'r-1' });
    now += 3_600_000;
    expect(reloaded.get()).toEqual({});
  });

  it('clear removes the set from the storage; another key or storage (another tab) holds nothing', () => {
    const storage = fakeStorage();
    const store = sessionTokenStore({ key: 'k', storage });
    store.set(tokens);
    expect(sessionTokenStore({ key: 'other', storage }).get()).toEqual({});
    expect(sessionTokenStore({ key: 'k', storage: fakeStorage() }).get()).toEqual({});
    store.clear();
    expect(store.get()).toEqual({});
    expect(storage.getItem('k')).toBeNull();
  });

  it('ignores what it cannot read, and keeps working in memory when the storage refuses', () => {
    const storage = fakeStorage();
    storage.setItem('k', '{not json');
    expect(sessionTokenStore({ key: 'k', storage }).get()).toEqual({});
    storage.setItem('k', JSON.stringify({ tokens: { access: 'x' }, at: 1 }));
    expect(sessionTokenStore({ key: 'k', storage }).get()).toEqual({});
    const full = {
      ...fakeStorage(),
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const store = sessionTokenStore({ key: 'k', storage: full });
    store.set(tokens);
    expect(store.get().access).toBe('a.b.c');
  });
});

describe('routePath', () => {
  it('fills :name segments, encoded, and leaves the others', () => {
    expect(routePath('/admin/users/:id/block', { id: 12 })).toBe('/admin/users/12/block');
    expect(routePath('/a/:x/:y', { x: 'a b/c' })).toBe('/a/a%20b%2Fc/:y');
    expect(routePath('/admin/users')).toBe('/admin/users');
  });
});
