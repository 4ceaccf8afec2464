import { A, expectError, PASSWORD, PID, signUp, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { hasRedisServer, type ScratchRedis, startScratchRedis } from '@edupass/test-kit/scratch-redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Generous for a loaded machine, far below what a sign-in waiting on a dead Redis took (12 s, then 500). */
const BOUND_MS = 5_000;
const LOCK_AFTER = 3;

describe.skipIf(!hasRedisServer())('Redis stops and comes back while the server runs', () => {
  let redis: ScratchRedis;
  let server: TestServer;
  beforeAll(async () => {
    redis = await startScratchRedis();
    server = await startTestServer({
      redisUrl: redis.url,
      loginSlowdownAfter: LOCK_AFTER,
      loginLockAfter: LOCK_AFTER,
    });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.remove();
  });

  const login = (identity: string, password: string) =>
    fetch(`${server.url}${A}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...TOKEN_SET_HEADERS },
      body: JSON.stringify({ identity, password, pid: PID }),
      signal: AbortSignal.timeout(BOUND_MS),
    }).then(async (response) => ({ status: response.status, body: await response.json(), headers: response.headers }));

  /** Keys of failed-login counters in the scratch Redis. */
  const failureKeysInRedis = async () => {
    const probe = new Redis(redis.url, { lazyConnect: true });
    try {
      await probe.connect();
      return (await probe.keys('*login-fail*')).length;
    } finally {
      probe.disconnect();
    }
  };

  it('sign-in answers within the bound, limits hold on the database, and Redis is used again once back', async () => {
    const account = await signUp(server);
    const other = await signUp(server);
    expect((await login(account.phone, PASSWORD)).status).toBe(200);

    await redis.stop();
    // A correct password signs in without waiting on Redis.
    expect((await login(account.phone, PASSWORD)).status).toBe(200);
    // Failed logins are still counted (in the database) and still lock.
    for (let i = 0; i < LOCK_AFTER; i++) expectError(await login(other.phone, 'Wrong-password-1'), 'AC3_2');
    expectError(await login(other.phone, PASSWORD), 'E_5');
    // Session-checked calls do not wait on the forget channel either.
    const profile = await fetch(`${server.url}${A}/profile`, {
      headers: { authorization: `Bearer ${account.token}` },
      signal: AbortSignal.timeout(BOUND_MS),
    });
    expect(profile.status).toBe(200);

    await redis.start();
    // The counters reconnect by themselves: failures land in Redis again.
    await expect
      .poll(
        async () => {
          await login(account.phone, 'Wrong-password-2');
          return failureKeysInRedis();
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBeGreaterThan(0);
    expect((await login(account.phone, PASSWORD)).status).toBe(200);
  });
});
