import { COOKIE_CLEAR_MAX_AGE, type TokenSet } from '@edupass/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { cookieNames, cookieTokenStore } from './cookies.ts';
import { memoryTokenStore } from './token-store.ts';

const tokens: TokenSet = {
  access: { token: 'a.b.c', type: 'Bearer', expires_in: 900 },
  refresh: { token: 'r-1', expires_in: 2_592_000 },
};

/** A document whose cookie jar is a list of the raw strings written; reads give name=value of the live ones. */
const fakeDocument = () => {
  const written: string[] = [];
  const jar = new Map<string, string>();
  const doc = {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(raw: string) {
      written.push(raw);
      const [pair = '', ...attrs] = raw.split('; ');
      const [name = '', value = ''] = pair.split('=');
      const maxAge = Number(attrs.find((a) => a.startsWith('max-age='))?.slice(8));
      if (maxAge <= 0) jar.delete(name);
      else jar.set(name, value);
    },
  };
  Object.assign(globalThis, { document: doc });
  return written;
};

afterEach(() => {
  Reflect.deleteProperty(globalThis, 'document');
});

describe('token cookie names', () => {
  it('are plain in prod and prefixed with the environment elsewhere', () => {
    expect(cookieNames('prod')).toEqual({ access: 'access_token', type: 'token_type', refresh: 'refresh_token' });
    expect(cookieNames('dev')).toEqual({
      access: 'dev_access_token',
      type: 'dev_token_type',
      refresh: 'dev_refresh_token',
    });
    expect(cookieNames('api-test').access).toBe('api-test_access_token');
  });
});

describe('cookie token store', () => {
  it('writes the three cookies on the shared domain with max-age = expires_in', () => {
    const written = fakeDocument();
    const store = cookieTokenStore({ env: 'staging', domain: 'example.com' });
    store.set(tokens);
    expect(written).toEqual([
      'staging_access_token=a.b.c; path=/; max-age=900; samesite=lax; domain=example.com',
      'staging_token_type=Bearer; path=/; max-age=900; samesite=lax; domain=example.com',
      'staging_refresh_token=r-1; path=/; max-age=2592000; samesite=lax; domain=example.com',
    ]);
    expect(store.get()).toEqual({ access: 'a.b.c', type: 'Bearer', refresh: 'r-1' });
  });

  it('clears with the large negative max age', () => {
    const written = fakeDocument();
    const store = cookieTokenStore({ env: 'prod' });
    store.set(tokens);
    store.clear();
    expect(written.slice(3)).toEqual(
      ['access_token', 'token_type', 'refresh_token'].map(
        (name) => `${name}=; path=/; max-age=${COOKIE_CLEAR_MAX_AGE}; samesite=lax`,
      ),
    );
    expect(store.get()).toEqual({});
  });

  it('reads only its own environment', () => {
    fakeDocument();
    cookieTokenStore({ env: 'dev' }).set(tokens);
    expect(cookieTokenStore({ env: 'prod' }).get()).toEqual({});
    expect(cookieTokenStore({ env: 'dev' }).get().refresh).toBe('r-1');
  });

  it('is inert without a document', () => {
    const store = cookieTokenStore({ env: 'prod' });
    expect(() => store.set(tokens)).not.toThrow();
    expect(store.get()).toEqual({});
  });
});

describe('memory token store', () => {
  it('forgets each token after its expires_in, like a cookie max age', () => {
    let now = 1_000_000;
    const store = memoryTokenStore({ now: () => now });
    store.set(tokens);
    expect(store.get()).toEqual({ access: 'a.b.c', type: 'Bearer', refresh: 'r-1' });
    now += 900_000;
    expect(store.get()).toEqual({ refresh: 'r-1' });
    now += 2_592_000_000;
    expect(store.get()).toEqual({});
  });
});
