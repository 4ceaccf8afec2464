/** Prometheus metrics: what the server counts, scraped as Prometheus would, behind a token or on their own port. */

import { networkInterfaces } from 'node:os';
import { A, expectError, PID, signUp } from '@edupass/test-kit/accounts';
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { reportOneEvent } from '@edupass/test-kit/usage-reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line (labels in the order the registry writes them), or undefined. */
const sample = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('metrics behind METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ metricsToken: TOKEN, loginSlowdownAfter: 2, loginLockAfter: 2 });
  });
  afterAll(() => server?.close());

  const scrape = async (token = TOKEN) => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  it("names metrics by Prometheus conventions, with Node's process metrics under their usual names", async () => {
    const { text } = await scrape();
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name = '', type = '']) => ({ name, type }));
    expect(types.length).toBeGreaterThan(20);
    expect(types.filter(({ name, type }) => type !== 'counter' && name.endsWith('_total'))).toEqual([]);
    expect(types.filter(({ name, type }) => type === 'counter' && !name.endsWith('_total'))).toEqual([]);
    expect(types.filter(({ name }) => name.startsWith('edupass_process_'))).toEqual([]);
    const names = types.map(({ name }) => name);
    for (const stock of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_active_handles',
    ]) {
      expect(names).toContain(stock);
    }
  });

  it('refuses a scrape without the token', async () => {
    const call = client(server.url);
    expectError(await call('GET', '/metrics'), 'E_0');
    expect((await scrape('wrong-token-wrong-token-wrong')).status).toBe(403);
  });

  it('counts requests by route and status, code sends, failed logins and locks, captcha challenges, sweeps', async () => {
    const call = client(server.url);
    const account = await signUp(server);
    for (let i = 0; i < 2; i++) {
      expectError(
        await call('POST', `${A}/login`, { identity: account.phone, password: 'Wrong-123', pid: PID }),
        'AC3_2',
      );
    }
    expectError(await call('POST', `${A}/login`, { identity: account.phone, password: 'Wrong-123', pid: PID }), 'E_5');
    expect((await call('POST', '/captcha/slide/challenge', { scene: 'login' })).status).toBe(200);
    const report = await reportOneEvent(server.url);
    expect(report.status).toBe(204);

    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sample(text, `edupass_http_requests_total{route="${A}/login",method="POST",status="403"}`),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, `edupass_http_requests_total{route="${A}/login",method="POST",status="429"}`)).toBe(1);
    expect(sample(text, `edupass_http_request_duration_seconds_count{route="/report/:product",method="POST"}`)).toBe(1);
    // The latency histogram in Prometheus' shape: cumulative buckets up to +Inf, which equals the count.
    const login = `route="${A}/login",method="POST"`;
    const loginCount = sample(text, `edupass_http_request_duration_seconds_count{${login}}`);
    expect(loginCount).toBeGreaterThanOrEqual(3);
    expect(sample(text, `edupass_http_request_duration_seconds_bucket{le="+Inf",${login}}`)).toBe(loginCount);
    expect(sample(text, `edupass_http_request_duration_seconds_bucket{le="10",${login}}`)).toBe(loginCount);
    expect(sample(text, `edupass_http_request_duration_seconds_sum{${login}}`)).toBeGreaterThan(0);
    expect(
      sample(text, 'edupass_code_sends_total{provider="outbox",channel="sms",outcome="sent"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'edupass_login_failures_total')).toBe(2);
    expect(sample(text, 'edupass_login_locks_total')).toBe(1);
    expect(sample(text, 'edupass_captcha_challenges_total{provider="slide"}')).toBe(1);
    expect(sample(text, 'edupass_ingestion_pending_rows')).toBe(0);
    expect(sample(text, 'edupass_password_hashes{state="running"}')).toBe(0);
    expect(sample(text, 'edupass_password_hashes{state="waiting"}')).toBe(0);
    expect(sample(text, 'edupass_ingestion_refused_total')).toBe(0);
    expect(sample(text, 'edupass_sweep_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    // Each sweep counts what it removed, none included, so every kind has its series from the first sweep.
    for (const rows of ['refreshTokens', 'sessionsPastMaxAge', 'endedCards', 'webhookWaitingDropped', 'oidcModels']) {
      expect(sample(text, `edupass_sweep_rows_total{rows="${rows}"}`), rows).toBeGreaterThanOrEqual(0);
    }
    if (testDatabaseKind() === 'postgres') {
      expect(sample(text, 'edupass_db_pool_connections{state="max"}')).toBe(10);
      expect(sample(text, 'edupass_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('metrics on METRICS_PORT', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ metricsPort: 0 });
  });
  afterAll(() => server?.close());

  it('serves /metrics on its own port only', async () => {
    const port = server.app.metricsPort;
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(
      sample(await response.text(), 'edupass_http_requests_total{route="/healthz",method="GET",status="200"}'),
    ).toBe(1);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});

/** An address of this machine other than loopback, where other machines would reach a listener. */
const outsideAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;

describe('the metrics listener is not open to everyone', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The main listener on every address, as in production: the metrics one stays on loopback.
    server = await startTestServer({ metricsPort: 0, host: '0.0.0.0' });
  });
  afterAll(() => server?.close());

  it('binds loopback by default (METRICS_HOST=127.0.0.1)', async () => {
    const port = server.app.metricsPort;
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    const outside = outsideAddress();
    expect(outside, 'this machine has a non-loopback address').toBeDefined();
    await expect(fetch(`http://${outside}:${port}/metrics`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  });

  it('asks for METRICS_TOKEN on its port too when one is set', async () => {
    const guarded = await startTestServer({ metricsPort: 0, metricsToken: TOKEN });
    try {
      const url = `http://127.0.0.1:${guarded.app.metricsPort}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('refuses to start in production on a public address without METRICS_TOKEN', () => {
    const base = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-signing-secret-of-at-least-32-characters',
      METRICS_PORT: '9464',
    };
    const env = { ...base, METRICS_HOST: '0.0.0.0' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/METRICS_HOST/);
    expect(loadConfig({ ...env, METRICS_TOKEN: TOKEN }).metricsHost).toBe('0.0.0.0');
    expect(loadConfig(base).metricsHost).toBe('127.0.0.1');
  });
});
