/**
 * The token state machine of spec §4 against the real server: expiry (a server built with a 1-second
 * access token), refresh, retry, conversion of the old session cookie, clearing.
 */
import {
  CLIENT_MESSAGES,
  ClientCode,
  convertCookieRoute,
  getProfileRoute,
  refreshTokensRoute,
} from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import * as sdk from './index.ts';
import { rejection, withRealServer } from './testing/real-server.test-setup.ts';

/**
 * The server's clock stands still unless a test moves it: a 1-second access token outlives a slow
 * machine, and expiry comes when a test says so, not after a wait.
 */
let serverNow = Date.now();
const real = withRealServer({ accessTokenTtlSeconds: 1 }, { now: () => serverNow });

/** A client whose requests are logged as 'METHOD /path', with a memory store on a clock the test moves. */
const newClient = (extra: Partial<sdk.AccountConfig> & { cookie?: string } = {}) => {
  const log: string[] = [];
  const clock = { now: Date.now() };
  const { cookie, ...config } = extra;
  const client = real.newClient({
    storage: sdk.memoryTokenStore({ now: () => clock.now }),
    fetch: (url, init) => {
      log.push(`${init?.method} ${new URL(String(url)).pathname}`);
      const headers = { ...(init?.headers as Record<string, string>), ...(cookie && { cookie }) };
      return fetch(url, { ...init, headers });
    },
    ...config,
  });
  return { client, log, clock };
};

const route = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const PROFILE = route(getProfileRoute);
const REFRESH = route(refreshTokensRoute);
const CONVERT = route(convertCookieRoute);

const signUp = async (client: sdk.AccountClient) => (await real.signUpByPhone(client)).result;

/** Moves the server's clock past the access token's `exp` claim. */
const pastExpiry = (jwt: string) => {
  const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as { exp: number };
  serverNow = Math.max(serverNow, payload.exp * 1000 + 50);
};

describe('token state against the real server', () => {
  it('gets a token set whose access token lives accessTokenTtlSeconds', async () => {
    const { client } = newClient();
    const result = await signUp(client);
    expect(result.auth.token).toMatchObject({ access: { expires_in: 1, type: expect.any(String) } });
  });

  it('1 → 2: once the access cookie has expired, refreshes and uses the result', async () => {
    const { client, log, clock } = newClient();
    await signUp(client);
    const before = client.tokens.get();
    clock.now += 1_001; // past the access token's max age, as a cookie would be
    expect(client.tokens.get()).toEqual({ refresh: before.refresh });
    log.length = 0;
    await sdk.getProfile(client);
    expect(log).toEqual([REFRESH, PROFILE]);
    expect(client.tokens.get().refresh).not.toBe(before.refresh); // rotated
  });

  it('a token the server finds expired (10000000) is refreshed and the call retried', async () => {
    const { client, log } = newClient();
    await signUp(client);
    const { access } = client.tokens.get();
    pastExpiry(access!);
    log.length = 0;
    const profile = await sdk.getProfile(client);
    expect(profile.id).toEqual(expect.any(Number));
    expect(log).toEqual([PROFILE, REFRESH, PROFILE]);
  });

  it('a tampered access token is refused as invalid, refreshed and retried', async () => {
    const { client, log } = newClient();
    const { auth } = await signUp(client);
    const set = auth.token as { access: { token: string; type: string }; refresh: { token: string } };
    client.tokens.set({
      access: { token: `${set.access.token.slice(0, -3)}abc`, type: set.access.type, expires_in: 60 },
      refresh: { token: set.refresh.token, expires_in: 600 },
    });
    log.length = 0;
    await sdk.getProfile(client);
    expect(log).toEqual([PROFILE, REFRESH, PROFILE]);
  });

  it('concurrent calls with an expired access token make one refresh', async () => {
    const { client, log, clock } = newClient();
    await signUp(client);
    clock.now += 1_001;
    log.length = 0;
    await Promise.all(Array.from({ length: 4 }, () => sdk.getProfile(client)));
    expect(log.filter((entry) => entry === REFRESH)).toHaveLength(1);
  });

  it('a refused refresh token (10000001) clears every token', async () => {
    const { client, clock } = newClient();
    await signUp(client);
    client.tokens.set({
      access: { token: 'gone', type: 'Bearer', expires_in: 1 },
      refresh: { token: 'not-a-refresh-token', expires_in: 600 },
    });
    clock.now += 1_001;
    const error = await rejection(sdk.getProfile(client));
    expect(error).toMatchObject({ code: ClientCode.NO_TOKEN, message: CLIENT_MESSAGES.noTokenExpired });
    expect(error.cause).toMatchObject({ code: ClientCode.REFRESH_TOKEN_INVALID, serverCode: '10000001', status: 401 });
    expect(client.tokens.get()).toEqual({});
    expect(sdk.getSession(client).status).toBe('signed-out');
  });

  it('3: converts the old session cookie into tokens', async () => {
    // A client of the cookie era: no Auth-Version, so the server sets the HttpOnly `authorization` cookie.
    const legacy = newClient({ auth_version: undefined });
    const result = await signUp(legacy.client);
    expect(typeof result.auth.token).toBe('string');
    expect(legacy.client.tokens.get()).toEqual({});
    const { client, log } = newClient({ cookie: `authorization=${result.auth.token as string}` });
    await sdk.getProfile(client);
    expect(log).toEqual([CONVERT, PROFILE]);
    expect(client.tokens.get()).toEqual({
      access: expect.any(String),
      type: expect.any(String),
      refresh: expect.any(String),
    });
  });

  it('3: a failed conversion clears and raises "NO Token. Please login."', async () => {
    const { client, log } = newClient();
    const error = await rejection(sdk.getProfile(client));
    expect(error).toMatchObject({ code: 11, name: 'NO_TOKEN', message: 'NO Token. Please login.' });
    expect(error.cause).toMatchObject({ code: ClientCode.COOKIE_INVALID, serverCode: '10000002' });
    expect(log).toEqual([CONVERT]);
  });

  it('revokeTokens ends the session on the server and clears the tokens', async () => {
    const { client, clock } = newClient();
    await signUp(client);
    const { refresh } = client.tokens.get();
    await sdk.revokeTokens(client);
    expect(client.tokens.get()).toEqual({});
    client.tokens.set({
      access: { token: 'x', type: 'Bearer', expires_in: 0 },
      refresh: { token: refresh!, expires_in: 600 },
    });
    clock.now += 1;
    expect((await rejection(sdk.getProfile(client))).cause).toMatchObject({ serverCode: '10000001' });
  });

  it('explicit refreshTokens rotates the pair', async () => {
    const { client } = newClient();
    await signUp(client);
    const before = client.tokens.get();
    const after = await sdk.refreshTokens(client);
    // The access JWT may come out identical within the same second; the refresh token always rotates.
    expect(after.refresh).not.toBe(before.refresh);
    expect(client.tokens.get()).toEqual(after);
  });
});
