import { A } from '@edupass/test-kit/accounts';
import { freePort } from '@edupass/test-kit/child-server';
import { createTestDatabase, testDatabaseKind } from '@edupass/test-kit/databases';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { startTcpRelay } from '@edupass/test-kit/tcp-relay';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config/config.ts';

const get = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(10_000) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { ok?: boolean; error_code?: string; error_message?: string },
    retryAfter: r.headers.get('retry-after'),
  }));

/** Not ready, saying what is wrong — never where it runs (a host, an address, a port): the log has that. */
const expectNotReady = async (url: string, reason: RegExp, hidden: string[] = []) => {
  const answer = await get(`${url}/readyz`);
  expect(answer.status).toBe(503);
  expect(answer.body.error_code).toBe('E_10');
  expect(answer.body.error_message).toMatch(reason);
  for (const secret of ['127.0.0.1', 'localhost', 'ECONNREFUSED', ...hidden]) {
    expect(answer.body.error_message).not.toContain(secret);
  }
  expect(answer.retryAfter).toBe('5');
};

describe('a server with everything it needs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ redisUrl: process.env.EDUPASS_TEST_REDIS_URL });
  });
  afterAll(() => server?.close());

  it('is alive and ready', async () => {
    const redis = process.env.EDUPASS_TEST_REDIS_URL === undefined ? 'off' : 'up';
    expect(await get(`${server.url}/healthz`)).toMatchObject({
      status: 200,
      body: { ok: true, redis: { state: redis } },
    });
    await expect.poll(async () => (await get(`${server.url}/readyz`)).status).toBe(200);
  });

  it('is not ready while its schema misses a migration (and ready again once migrated)', async () => {
    await sql`delete from kysely_migration where name = '008-expiry-indexes'`.execute(server.app.ctx.db);
    await expectNotReady(server.url, /schema is behind \(missing 008-expiry-indexes\): run edupass migrate/);
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
    await sql`insert into kysely_migration (name, timestamp) values ('008-expiry-indexes', ${new Date().toISOString()})`.execute(
      server.app.ctx.db,
    );
    expect((await get(`${server.url}/readyz`)).status).toBe(200);
  });
});

describe('a server whose Redis does not answer', () => {
  const TOKEN = 'metrics-token-for-readiness-0123456789';
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startTestServer({ redisUrl: `redis://127.0.0.1:${port}`, metricsToken: TOKEN });
  });
  afterAll(() => server?.close());

  const redisUp = async () => {
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    return /^edupass_redis_up (\d)$/m.exec(text)?.[1];
  };

  it('stays ready (it serves: counters fall back to the database), and says Redis is down in /healthz and metrics', async () => {
    // Redis is shared by every instance: failing readiness for it would take them all out at once.
    expect(await get(`${server.url}/readyz`)).toMatchObject({ status: 200, body: { ok: true } });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const healthText = await health.text();
    expect(JSON.parse(healthText)).toMatchObject({ ok: true, redis: { state: 'down', reason: expect.any(String) } });
    expect(healthText).not.toContain(String(port)); // where Redis runs goes to the log only
    expect(await redisUp()).toBe('0');
    // Requests are served meanwhile.
    const login = await fetch(`${server.url}${A}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identity: '13800000000', password: 'Secret123', pid: 'edupass' }),
    });
    expect(login.status).toBeLessThan(500);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('a server whose PostgreSQL goes away', () => {
  it('is not ready and answers 503 E_10 (never 500) until PostgreSQL is back', async () => {
    const database = await createTestDatabase();
    const target = new URL(database.url);
    const pgRelay = await startTcpRelay(target.hostname, Number(target.port || 5432));
    const viaRelay = new URL(database.url);
    viaRelay.port = String(pgRelay.port);
    const app = await buildApp(
      { ...loadConfig({ DATABASE_URL: viaRelay.toString(), LOG_LEVEL: 'warn' }), port: 0, host: '127.0.0.1' },
      { logger: false },
    );
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      expect((await get(`${url}/readyz`)).status).toBe(200);
      await pgRelay.cut();
      await expectNotReady(url, /Not ready: the database does not answer/, [String(pgRelay.port), target.hostname]);
      expect((await get(`${url}/healthz`)).status).toBe(200);
      const login = await fetch(`${url}${A}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identity: '13800000000', password: 'Secret123', pid: 'edupass' }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(login.status).toBe(503);
      expect(((await login.json()) as { error_code: string }).error_code).toBe('E_10');
      await pgRelay.open();
      await expect.poll(async () => (await get(`${url}/readyz`)).status, { timeout: 20_000 }).toBe(200);
    } finally {
      await app.close();
      await pgRelay.cut();
      await database.drop();
    }
  });
});
