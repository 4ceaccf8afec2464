/**
 * The console's server additions over HTTP: captcha policy per product and scene (vendor secrets
 * never answered), and the monitoring details (error groups, API codes, vitals p75 per bucket).
 */
import type { CaptchaSettings } from '@edupass/protocol';
import { auditorToken, nextPhone, signInOperator } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../config/config.ts';
import { usageDb, writeUsage } from '../../store/usage/events.ts';

const SECRET = 'geetest-private-key-0123456789';
const withVendor = loadConfig({ DATABASE_URL: ':memory:', GEETEST_ID: 'gt-public-id', GEETEST_KEY: SECRET });
const { server, call } = useTestServer({ captcha: withVendor.captcha });
let token: string;

beforeAll(async () => {
  token = (await signInOperator(server)).token;
});

describe('captcha settings', () => {
  test('a policy set per product and scene is listed, decides the rule, and is recorded in the audit log', async () => {
    const set = await call(
      'POST',
      '/admin/captcha/policies',
      { pid: 'edupass', scene: 'Register', policy: 'never' },
      { token },
    );
    expect(set.status).toBe(204);
    const settings = await call<{ policies: unknown[] }>('GET', '/admin/captcha', undefined, { token });
    expect(settings.body.policies).toContainEqual({ pid: 'edupass', scene: 'register', policy: 'never' });
    const rule = await call<{ rule: string; ticket: string }>('POST', '/captcha/rule/v3', {
      pid: 'edupass',
      scene: 'register',
      identity: nextPhone(),
      capabilities: ['SLIDE'],
    });
    expect(rule.body.rule).toBe('DEFAULT');
    const audit = await call<{ action: string; target: string }[]>('GET', '/admin/audit', undefined, {
      token: await auditorToken(server),
    });
    expect(audit.body[0]).toMatchObject({ action: 'captcha.policy.set', target: 'captcha:edupass:register' });

    expect(
      (await call('POST', '/admin/captcha/policies/clear', { pid: 'edupass', scene: 'register' }, { token })).status,
    ).toBe(204);
    const after = await call<{ policies: unknown[] }>('GET', '/admin/captcha', undefined, { token });
    expect(after.body.policies).toEqual([]);
  });

  test('bad policies and keys are refused with E_1', async () => {
    for (const body of [
      { pid: 'edupass', scene: 'login', policy: 'sometimes' },
      { pid: 'edu pass', scene: 'login', policy: 'always' },
      { pid: 'edupass', scene: 'login' },
    ]) {
      const answer = await call<{ error_code: string }>('POST', '/admin/captcha/policies', body, { token });
      expect([answer.status, answer.body.error_code]).toEqual([400, 'E_1']);
    }
  });

  test('vendor keys: public ids shown, secrets only as set or not set and from where', async () => {
    const answer = await call<CaptchaSettings>('GET', '/admin/captcha', undefined, { token });
    expect(JSON.stringify(answer.body)).not.toContain(SECRET);
    expect(answer.body.vendors.find((v) => v.name === 'GEETEST')).toEqual({
      name: 'GEETEST',
      configured: true,
      missing: [],
      fields: [
        { name: 'id', env: 'GEETEST_ID', secret: false, url: false, value: 'gt-public-id', source: 'environment' },
        { name: 'key', env: 'GEETEST_KEY', secret: true, url: false, source: 'environment' },
        {
          name: 'apiUrl',
          env: 'GEETEST_API_URL',
          secret: false,
          url: true,
          value: 'http://api.geetest.com',
          source: 'default',
        },
      ],
    });
  });
});

describe('monitoring details', () => {
  const HOUR = 3_600_000;
  const base = Math.floor(Date.now() / HOUR) * HOUR - 48 * HOUR;
  const beacon = (kind: string, at: number, extra: object) => ({
    product_code: 'console-test',
    kind,
    page: '/lesson',
    ip: '127.0.0.1',
    ua: null,
    at,
    received_at: at,
    ...extra,
  });

  beforeAll(async () => {
    await writeUsage(usageDb(server.app.ctx.db), {
      events: [],
      beacons: [
        // One bucket with LCP 100..800: p75 is the value at offset ⌊0.75·7⌋ = 5, i.e. 600.
        ...[800, 100, 700, 200, 600, 300, 500, 400].map((value, n) => beacon('perf', base + n, { name: 'LCP', value })),
        beacon('perf', base + HOUR, { name: 'LCP', value: 42 }),
        beacon('error', base, { name: 'boom', page: '/a' }),
        beacon('error', base + 5 * HOUR, { name: 'boom', page: '/b' }),
        beacon('api', base, { url: '/api/x', code: 601, business: 0 }),
        beacon('api', base, { url: '/api/x', code: 404, business: 1 }),
        beacon('api', base, { url: '/api/x', code: 404, business: 1 }),
        beacon('api', base, { url: '/api/x', code: 200, business: 0 }),
      ],
    });
  });

  const window = `product=console-test&from=${base - HOUR}&to=${base + 24 * HOUR}`;

  test('vitals p75 per hour', async () => {
    const answer = await call('GET', `/admin/monitor/vitals-series?${window}&bucket=hour`, undefined, { token });
    expect(answer.body).toEqual([
      { name: 'LCP', bucket: base, count: 8, p75: 600 },
      { name: 'LCP', bucket: base + HOUR, count: 1, p75: 42 },
    ]);
  });

  test('errors grouped by message with pages and last seen; failed calls per path and code', async () => {
    const groups = await call('GET', `/admin/monitor/error-groups?${window}`, undefined, { token });
    expect(groups.body).toEqual([{ message: 'boom', count: 2, pages: 2, last_seen: base + 5 * HOUR }]);
    const codes = await call<unknown[]>('GET', `/admin/monitor/api-codes?${window}`, undefined, { token });
    expect(codes.body).toEqual([
      { path: '/api/x', code: 404, business: true, count: 2 },
      { path: '/api/x', code: 601, business: false, count: 1 },
    ]);
  });

  test('a window backwards, or longer than 366 days, is E_1', async () => {
    for (const query of ['product=x&from=10&to=5', `product=x&from=0&to=${400 * 86_400_000}`, 'from=1']) {
      const answer = await call<{ error_code: string }>('GET', `/admin/monitor/error-groups?${query}`, undefined, {
        token,
      });
      expect(answer.body.error_code).toBe('E_1');
    }
  });
});
