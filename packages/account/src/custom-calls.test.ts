import { ClientCode, type TokenSet } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { callRoute, routePath, sessionTokenStore } from './custom-calls.ts';
import { createAccountClient, isAuthError, loginByPassword } from './index.ts';
import { startFakeApi } from './testing/fake-api.ts';

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

describe('codes of the education and staff group (76 on), which the main entry does not name', () => {
  const refusal = async (call: () => Promise<unknown>) => {
    const error = await call().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!isAuthError(error)) throw new Error(`not an AuthError: ${String(error)}`);
    return error;
  };

  it('keep their numbers everywhere, and their catalogue names through callRoute', async () => {
    const api = await startFakeApi({
      'POST /classes': () => ({ status: 409, body: { error_code: 'E_18', error_number: 76, error_message: 'Taken.' } }),
      // Another server of this API: error_code alone.
      'POST /staff': () => ({ status: 403, body: { error_code: 'E_21', error_message: 'Expired.' } }),
      'POST /tiger/v3/web/accounts/login': () => ({ status: 403, body: { error_code: 'E_21', error_number: 79 } }),
    });
    try {
      const client = createAccountClient({
        pid: 'edupass',
        appid: 1001,
        product_code: 77,
        platform: 'web',
        host: { tiger: api.url, platform: api.url },
      });
      const route = (path: string) => ({
        method: 'POST' as const,
        path,
        host: 'tiger' as const,
        auth: 'none' as const,
      });
      const taken = await refusal(() => callRoute(client, route('/classes')));
      expect([taken.code, taken.name, taken.serverCode, taken.message]).toEqual([
        ClientCode.CLASS_NAME_TAKEN,
        'CLASS_NAME_TAKEN',
        'E_18',
        'Taken.',
      ]);
      const expired = await refusal(() => callRoute(client, route('/staff')));
      expect([expired.code, expired.name]).toEqual([ClientCode.PASSWORD_EXPIRED, 'PASSWORD_EXPIRED']);
      // The main entry's own calls: the number from the catalogue, the name the server's code.
      const signIn = await refusal(() => loginByPassword(client, { identity: 'teacher01', password: 'secret12' }));
      expect([signIn.code, signIn.name, signIn.serverCode]).toEqual([ClientCode.PASSWORD_EXPIRED, 'E_21', 'E_21']);
    } finally {
      await api.close();
    }
  });
});
