import { CLIENT_MESSAGES, ClientCode, type TokenSet } from '@edupass/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as sdk from './index.ts';
import { type Answer, type FakeApi, type Recorded, startFakeApi } from './testing/fake-api.ts';

const PROFILE = 'GET /tiger/v3/web/accounts/profile';
const REFRESH = 'PUT /tiger/v3/web/accounts/tokens/refresh';
const CONVERT = 'POST /tiger/v3/web/accounts/tokens/convert';

const wire = (status: number, error_code: string, error_number: number): Answer => ({
  status,
  body: { error_code, error_message: error_code, error_number, error_category: 'auth', log_uuid: 'x' },
});

/** A scripted token server: one live access token and one live refresh token at a time, rotated on refresh. */
class TokenServer {
  serial = 0;
  access = '';
  refresh = '';
  set(): TokenSet {
    this.serial += 1;
    this.access = `a${this.serial}`;
    this.refresh = `r${this.serial}`;
    return {
      access: { token: this.access, type: 'Bearer', expires_in: 60 },
      refresh: { token: this.refresh, expires_in: 3600 },
    };
  }
  handlers(api: FakeApi) {
    api.on(REFRESH, ({ body }) =>
      (body as { refresh_token?: string }).refresh_token === this.refresh && this.refresh
        ? { status: 200, body: this.set() }
        : wire(401, '10000001', 44),
    );
    api.on(CONVERT, ({ headers }) =>
      headers.cookie === 'authorization=legacy' ? { status: 200, body: this.set() } : wire(401, '10000002', 46),
    );
    api.on(PROFILE, ({ headers }) => {
      if (!headers.authorization) return wire(403, 'E_0', 11);
      return headers.authorization === `Bearer ${this.access}` && this.access
        ? { status: 200, body: { id: 7, nickname: 'Ada' } }
        : wire(401, '10000000', 43);
    });
  }
}

let api: FakeApi;
let server: TokenServer;
let now: number;
let client: sdk.AccountClient;
const warn = vi.fn();

beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.close());

beforeEach(() => {
  server = new TokenServer();
  server.handlers(api);
  now = 1_000_000;
  warn.mockClear();
  client = sdk.createAccountClient({
    pid: 'edupass',
    appid: 'wx1',
    product_code: 'edupass',
    platform: 'web',
    auth_version: 1,
    host: { tiger: api.url },
    storage: sdk.memoryTokenStore({ now: () => now }),
    logger: { warn },
  });
  api.requests.length = 0;
});

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: unknown) => error as sdk.AuthError,
  );

const profileAuths = () =>
  api.requests.filter((r: Recorded) => `${r.method} ${r.path}` === PROFILE).map((r) => r.headers.authorization);

describe('token state (spec §4)', () => {
  it('1. uses the held access token with its type', async () => {
    client.tokens.set(server.set());
    expect(await sdk.getProfile(client)).toEqual({ id: 7, nickname: 'Ada' });
    expect(profileAuths()).toEqual(['Bearer a1']);
    expect(api.count(REFRESH)).toBe(0);
  });

  it('2. refreshes when only the refresh token is left, then uses the result', async () => {
    client.tokens.set(server.set());
    now += 61_000; // the access token's max age has passed
    expect(client.tokens.get()).toEqual({ refresh: 'r1' });
    await sdk.getProfile(client);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([REFRESH, PROFILE]);
    expect(api.requests[0]!.body).toEqual({ refresh_token: 'r1' });
    expect(profileAuths()).toEqual(['Bearer a2']);
    expect(client.tokens.get()).toEqual({ access: 'a2', type: 'Bearer', refresh: 'r2' });
  });

  it('3. converts the old cookie when no token is held', async () => {
    const legacy = sdk.createAccountClient({
      ...client.config,
      fetch: (url, init) =>
        fetch(url, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), cookie: 'authorization=legacy' },
        }),
    });
    await sdk.getProfile(legacy);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([CONVERT, PROFILE]);
    expect(legacy.tokens.get().access).toBe('a1');
  });

  it('3. clears every token and raises NO_TOKEN when conversion fails', async () => {
    client.tokens.set({ ...server.set(), access: { token: 'stale', type: '', expires_in: 60 } });
    client.tokens.set({ access: { token: 'a-old', type: '', expires_in: 60 }, refresh: { token: 'x', expires_in: 0 } });
    const error = await rejection(sdk.getProfile(client));
    expect(error).toMatchObject({ code: ClientCode.NO_TOKEN, name: 'NO_TOKEN', message: 'NO Token. Please login.' });
    expect((error.cause as sdk.AuthError).serverCode).toBe('10000002');
    // The leftover access token without its type went along as Bearer.
    expect(api.requests[0]!.headers.authorization).toBe('Bearer a-old');
    expect(client.tokens.get()).toEqual({});
    expect(client.session.get().status).toBe('signed-out');
    expect(api.count(PROFILE)).toBe(0);
  });

  it('refreshes and retries a call refused with "Access token is invalid."', async () => {
    client.tokens.set(server.set());
    server.set(); // the server moved on: a1 is no longer valid, r1 neither...
    server.refresh = 'r1'; // ...but r1 still refreshes
    await sdk.getProfile(client);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([PROFILE, REFRESH, PROFILE]);
    expect(profileAuths()).toEqual(['Bearer a1', 'Bearer a3']);
  });

  it('refreshes and retries too when the server sends only error_code (no error_number)', async () => {
    client.tokens.set(server.set());
    server.set();
    server.refresh = 'r1';
    api.on(PROFILE, ({ headers }) =>
      headers.authorization === `Bearer ${server.access}`
        ? { status: 200, body: { id: 7, nickname: 'Ada' } }
        : { status: 401, body: { error_code: '10000000', error_message: 'Access token is invalid.' } },
    );
    expect(await sdk.getProfile(client)).toEqual({ id: 7, nickname: 'Ada' });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([PROFILE, REFRESH, PROFILE]);
  });

  it(`retries at most TOKEN_RETRY_LIMIT (2) times, then fails with code 43`, async () => {
    client.tokens.set(server.set());
    api.on(PROFILE, () => wire(401, '10000000', 43));
    const error = await rejection(sdk.getProfile(client));
    expect(error).toMatchObject({ code: ClientCode.TOKEN_INVALID, serverCode: '10000000', status: 401 });
    expect(api.count(PROFILE)).toBe(3);
    expect(api.count(REFRESH)).toBe(2);
  });

  it('takes the retry count from the config', async () => {
    const once = sdk.createAccountClient({ ...client.config, storage: client.tokens, tokenRetries: 0 });
    once.tokens.set(server.set());
    api.on(PROFILE, () => wire(401, '10000000', 43));
    expect(await rejection(sdk.getProfile(once))).toMatchObject({ code: ClientCode.TOKEN_INVALID });
    expect(api.count(PROFILE)).toBe(1);
    expect(api.count(REFRESH)).toBe(0);
  });

  it('clears the tokens when the refresh token is refused (10000001)', async () => {
    client.tokens.set(server.set());
    now += 61_000;
    server.refresh = 'revoked';
    const error = await rejection(sdk.getProfile(client));
    expect(error).toMatchObject({ code: ClientCode.NO_TOKEN, message: CLIENT_MESSAGES.noTokenExpired });
    expect(error.cause).toMatchObject({ code: ClientCode.REFRESH_TOKEN_INVALID, serverCode: '10000001' });
    expect(client.tokens.get()).toEqual({});
  });

  it('drops the tokens when the server no longer knows the session (E_0)', async () => {
    client.tokens.set(server.set());
    api.on(PROFILE, () => wire(403, 'E_0', 11));
    expect(await rejection(sdk.getProfile(client))).toMatchObject({ code: 11, serverCode: 'E_0' });
    expect(client.tokens.get()).toEqual({});
  });

  it('keeps the tokens on a network failure during refresh', async () => {
    client.tokens.set(server.set());
    now += 61_000;
    api.on(REFRESH, () => ({ status: 200, raw: 'x' }));
    const broken = sdk.createAccountClient({
      ...client.config,
      storage: client.tokens,
      fetch: async (url, init) => {
        if (String(url).endsWith('/tokens/refresh')) throw new TypeError('fetch failed');
        return fetch(url, init);
      },
    });
    expect(await rejection(sdk.getProfile(broken))).toMatchObject({ code: ClientCode.REQUEST_ERROR });
    expect(broken.tokens.get()).toEqual({ refresh: 'r1' });
  });
});

describe('one exchange at a time', () => {
  it('concurrent calls share one refresh', async () => {
    client.tokens.set(server.set());
    now += 61_000;
    await Promise.all(Array.from({ length: 5 }, () => sdk.getProfile(client)));
    expect(api.count(REFRESH)).toBe(1);
    expect(profileAuths()).toEqual(Array(5).fill('Bearer a2'));
  });

  it('a failed refresh is not retried in a storm', async () => {
    client.tokens.set(server.set());
    now += 61_000;
    let refreshes = 0;
    api.on(REFRESH, () => {
      refreshes += 1;
      return { status: 503, body: { error_code: 'E_3', error_number: 58, error_message: 'down' } };
    });
    for (let i = 0; i < 5; i++) expect(await rejection(sdk.getProfile(client))).toMatchObject({ code: 58 });
    expect(refreshes).toBe(1);
  });

  it('a new sign-in lifts the failure at once', async () => {
    now += 0;
    const first = await rejection(sdk.getProfile(client)); // no tokens, no legacy cookie
    expect(first.code).toBe(ClientCode.NO_TOKEN);
    expect(await rejection(sdk.getProfile(client))).toBe(first);
    expect(api.count(CONVERT)).toBe(1);
    client.tokens.set(server.set());
    await expect(sdk.getProfile(client)).resolves.toMatchObject({ id: 7 });
  });
});

describe('calls that end or start a session', () => {
  it('logout sends the refresh token and clears the tokens on success', async () => {
    client.tokens.set(server.set());
    api.on('POST /tiger/v3/web/accounts/logout', () => ({ status: 204 }));
    await sdk.logout(client);
    expect(api.requests.at(-1)).toMatchObject({
      body: { refresh_token: 'r1' },
      headers: { authorization: 'Bearer a1' },
    });
    expect(client.tokens.get()).toEqual({});
  });

  it('logout that fails keeps the tokens', async () => {
    client.tokens.set(server.set());
    api.on('POST /tiger/v3/web/accounts/logout', () => ({
      status: 500,
      body: { error_code: 'E_3', error_number: 58 },
    }));
    await rejection(sdk.logout(client));
    expect(client.tokens.get().access).toBe('a1');
  });

  it.each([
    [
      'changePassword',
      'PATCH /tiger/v3/web/accounts/password',
      () => sdk.changePassword(client, { old_password: 'secret0', password: 'secret1', confirm_password: 'secret1' }),
    ],
    [
      'changePasswordByPhone',
      'PATCH /tiger/v3/web/accounts/password/phone',
      () => sdk.changePasswordByPhone(client, { phone_number: '13800138000', captcha: '123456', password: 'secret1' }),
    ],
    ['revokeTokens', 'DELETE /tiger/v3/web/accounts/tokens', () => sdk.revokeTokens(client)],
  ])('%s clears the tokens on success', async (_name, route, run) => {
    client.tokens.set(server.set());
    api.on(route, () => ({ status: 204 }));
    await run();
    expect(client.tokens.get()).toEqual({});
  });

  it('a sign-in stores the token set and tells the session', async () => {
    const user = { id: 9, nickname: 'Bo' };
    api.on('POST /tiger/v3/web/accounts/login', () => ({
      status: 200,
      body: { user_info: user, auth: { token: server.set() } },
    }));
    const seen: sdk.Session[] = [];
    const stop = sdk.onChange(client, (session) => seen.push(session));
    const result = await sdk.loginByPassword(client, { identity: 'bo', password: 'secret1' });
    stop();
    expect(result.user_info).toEqual(user);
    expect(client.tokens.get()).toEqual({ access: 'a1', type: 'Bearer', refresh: 'r1' });
    expect(seen).toEqual([{ status: 'signed-in', user }]);
    expect(sdk.getSession(client)).toBe(seen[0]);
  });

  it('a voice code answered with 200 stores the tokens', async () => {
    api.on('POST /tiger/v3/web/accounts/voice/captcha/send', () => ({
      status: 200,
      body: { user_info: { id: 3 }, auth: { token: server.set() } },
    }));
    const result = await sdk.sendVoiceCode(client, { phone_number: '13800138000', type: 'login' });
    expect(result?.user_info.id).toBe(3);
    expect(client.tokens.get().access).toBe('a1');
  });

  it('an unexpected token shape only warns', async () => {
    api.on('POST /tiger/v3/web/accounts/login', () => ({
      status: 200,
      body: { user_info: { id: 1 }, auth: { token: 'plain-string' } },
    }));
    await expect(sdk.loginByPassword(client, { identity: 'a', password: 'secret1' })).resolves.toBeDefined();
    expect(warn).toHaveBeenCalledOnce();
    expect(client.tokens.get()).toEqual({});
  });

  it('an optional-token call sends the token when held and goes anonymous otherwise', async () => {
    api.on('GET /tiger/v3/web/accounts/agreements/need-sign', () => ({ status: 200, body: [] }));
    await sdk.listAgreementsToSign(client);
    client.tokens.set(server.set());
    await sdk.listAgreementsToSign(client);
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([undefined, 'Bearer a1']);
  });

  it('explicit refreshTokens replaces a held access token', async () => {
    client.tokens.set(server.set());
    expect(await sdk.refreshTokens(client)).toMatchObject({ access: 'a2', refresh: 'r2' });
  });
});

describe('without auth_version', () => {
  it('sends no Authorization and keeps no tokens: the HttpOnly cookie carries the session', async () => {
    const cookieOnly = sdk.createAccountClient({
      ...client.config,
      auth_version: undefined,
      storage: sdk.memoryTokenStore(),
    });
    api.on(PROFILE, ({ headers }) => ({ status: headers.authorization ? 500 : 200, body: { id: 1 } }));
    api.on('POST /tiger/v3/web/accounts/login', () => ({
      status: 200,
      body: { user_info: { id: 1 }, auth: { token: 'jwt' } },
    }));
    expect(sdk.getSession(cookieOnly).status).toBe('unknown');
    await sdk.loginByPassword(cookieOnly, { identity: 'a', password: 'secret1' });
    expect(sdk.getSession(cookieOnly).status).toBe('signed-in');
    await sdk.getProfile(cookieOnly);
    expect(cookieOnly.tokens.get()).toEqual({});
    expect(warn).not.toHaveBeenCalled();
  });
});
