/**
 * Signed-in calls are answered from sessions remembered in memory (services/sessions/cache.ts). These
 * tests make each kind of change after the session was remembered and check the very next call sees
 * it — in the same process at once, in another process at once over Redis, and within
 * SESSION_CACHE_SECONDS without Redis.
 */
import { routes, type TokenSet } from '@edupass/protocol';
import {
  type Account,
  type Call,
  client,
  expectError,
  PASSWORD,
  signIn,
  signUp,
  sleep,
  T,
} from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer, useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import type { Config } from '../../config/config.ts';
import { saveUser } from '../account/users.ts';
import { OPERATOR_ROLE } from '../admin/operators.ts';

const redisUrl = process.env.EDUPASS_TEST_REDIS_URL;
const path = (name: keyof typeof routes, id?: number) => routes[name].path.replace(':id', String(id));

const profileOf = (call: Call, token: string) =>
  call<{ nickname: string }>('GET', path('getProfile'), undefined, { token });

/**
 * Reads the profile until it is answered from memory (http/remembered-profile.ts): the token verified
 * and the session remembered before the change, so the next read shows the change reaches memory.
 */
const remembered = async (call: Call, token: string, app: App) => {
  const before = app.rememberedProfile.answered;
  // With Redis, a process remembers nothing until it listens on the channel.
  await expect
    .poll(async () => {
      expect((await profileOf(call, token)).status).toBe(200);
      return app.rememberedProfile.answered;
    })
    .toBeGreaterThan(before);
};

const operatorOf = async (server: TestServer) => {
  const operator = await signUp(server);
  await saveUser(server.app.ctx, operator.userId, { role: OPERATOR_ROLE, operator_duties: 'system' });
  return operator;
};

describe('in one process, the next call sees each change', () => {
  const { server, call } = useTestServer({ sessionCacheSeconds: 60, refreshGraceSeconds: 0 });
  let operator: Account;
  beforeAll(async () => {
    operator = await operatorOf(server);
  });

  it('a profile update', async () => {
    const account = await signUp(server);
    await remembered(call, account.token, server.app);
    const changed = await call('PATCH', path('updateProfile'), { nickname: 'FreshName' }, { token: account.token });
    expect(changed.status).toBe(204);
    expect((await profileOf(call, account.token)).body.nickname).toBe('FreshName');
  });

  it('a username set once', async () => {
    const account = await signUp(server);
    const privacy = () => call<{ username: string }>('GET', path('getPrivacy'), undefined, { token: account.token });
    expect((await privacy()).body.username).toBe('');
    const username = `fresh${Date.now().toString(36)}`;
    expect((await call('PATCH', path('setUsername'), { username }, { token: account.token })).status).toBe(204);
    expect((await privacy()).body.username).toBe(username);
  });

  it('a password change ends the other sessions', async () => {
    const account = await signUp(server);
    const other = await signIn(server, account.phone);
    await remembered(call, other.access.token, server.app);
    const body = { old_password: PASSWORD, password: 'Changed456', confirm_password: 'Changed456' };
    expect((await call('PATCH', path('changePassword'), body, { token: account.token })).status).toBe(204);
    expectError(await profileOf(call, other.access.token), 'E_0');
  });

  it('a sign-out', async () => {
    const account = await signUp(server);
    await remembered(call, account.token, server.app);
    expect((await call('POST', path('logout'), {}, { token: account.token })).status).toBe(204);
    expectError(await profileOf(call, account.token), 'E_0');
  });

  it('a block by an operator, and an operator ending the sessions', async () => {
    const blocked = await signUp(server);
    await remembered(call, blocked.token, server.app);
    const block = await call('POST', path('blockUser', blocked.userId), {}, { token: operator.token });
    expect(block.status).toBe(204);
    expect((await profileOf(call, blocked.token)).status).not.toBe(200);

    const revoked = await signUp(server);
    await remembered(call, revoked.token, server.app);
    const revoke = await call('POST', path('revokeUserSessions', revoked.userId), {}, { token: operator.token });
    expect(revoke.status).toBe(204);
    expectError(await profileOf(call, revoked.token), 'E_0');
  });

  it('a block leaving the session alive answers AC3_44 at once', async () => {
    const account = await signUp(server);
    await remembered(call, account.token, server.app);
    await saveUser(server.app.ctx, account.userId, { blocked_at: Date.now() });
    expectError(await profileOf(call, account.token), 'AC3_44');
  });

  it('a refresh token used twice ends the session', async () => {
    const account = await signUp(server);
    await remembered(call, account.token, server.app);
    expect((await call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: account.refresh })).status).toBe(200);
    await sleep(5);
    expect((await call('PUT', `${T}/refresh`, { refresh_token: account.refresh })).status).not.toBe(200);
    expectError(await profileOf(call, account.token), 'E_0');
  });
});

/** A second server process on the first one's database (another instance behind the load balancer). */
const secondInstance = async (config: Config, now?: () => number): Promise<{ app: App; call: Call }> => {
  const app = await buildApp(config, { logger: false, ...(now && { now }) });
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { app, call: client(`http://127.0.0.1:${address.port}`) };
};

/**
 * The next reads in another process are refused as soon as the forget published over Redis reaches
 * it (the publishing process answered before it did): read until refused, within expect.poll's limit.
 */
const refusedOnceHeard = async (call: Call, token: string, code: 'E_0' | 'AC3_44') => {
  await expect.poll(async () => (await profileOf(call, token)).status).not.toBe(200);
  expectError(await profileOf(call, token), code);
};

describe('across server processes', () => {
  it('without Redis, another process sees a block within SESSION_CACHE_SECONDS', async () => {
    const first = await startTestServer({ sessionCacheSeconds: 1 });
    let offset = 0;
    const second = await secondInstance(first.config, () => Date.now() + offset);
    try {
      const account = await signUp(first);
      await remembered(second.call, account.token, second.app);
      await saveUser(first.app.ctx, account.userId, { blocked_at: Date.now() });
      offset += 1_100; // past SESSION_CACHE_SECONDS on the second process's clock
      expectError(await profileOf(second.call, account.token), 'AC3_44');
    } finally {
      await second.app.close();
      await first.close();
    }
  });

  it.runIf(redisUrl !== undefined)('with Redis, another process sees a block at once', async () => {
    const first = await startTestServer({ sessionCacheSeconds: 60, redisUrl });
    const second = await secondInstance(first.config);
    try {
      const account = await signUp(first);
      // Remembered by the second process (once its channel is listened to: a second read is a hit).
      await remembered(second.call, account.token, second.app);
      await saveUser(first.app.ctx, account.userId, { blocked_at: Date.now() });
      await refusedOnceHeard(second.call, account.token, 'AC3_44');
    } finally {
      await second.app.close();
      await first.close();
    }
  });

  it.runIf(redisUrl !== undefined)(
    'with Redis, another process refuses at once after a sign-out or a password change',
    async () => {
      const first = await startTestServer({ sessionCacheSeconds: 60, redisUrl });
      const second = await secondInstance(first.config);
      try {
        const account = await signUp(first);
        await remembered(second.call, account.token, second.app);
        expect((await client(first.url)('POST', path('logout'), {}, { token: account.token })).status).toBe(204);
        await refusedOnceHeard(second.call, account.token, 'E_0');

        const other = await signIn(first, account.phone);
        await remembered(second.call, other.access.token, second.app);
        const current = await signIn(first, account.phone);
        const body = { old_password: PASSWORD, password: 'Changed456', confirm_password: 'Changed456' };
        const changed = await client(first.url)('PATCH', path('changePassword'), body, { token: current.access.token });
        expect(changed.status).toBe(204);
        await refusedOnceHeard(second.call, other.access.token, 'E_0');
      } finally {
        await second.app.close();
        await first.close();
      }
    },
  );
});
