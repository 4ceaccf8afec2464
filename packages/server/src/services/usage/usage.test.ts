import { randomUUID } from 'node:crypto';
import { type ReportEvent, type ReportPayload, TRACKER } from '@edupass/protocol';
import { expectError, signUp } from '@edupass/test-kit/accounts';
import { startTestServer, useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, it } from 'vitest';
import { sweepOnce } from '../platform/housekeeping.ts';

const { server, call } = useTestServer();

/** The events store the server writes to: the accounts database or ClickHouse (server-clickhouse project). */
const events = () => server.app.ctx.events;
const storedEvents = async () => (await events().counts()).events;
const storedBeacons = async () => (await events().counts()).beacons;
const storedEvent = async (id: string) => {
  const [row] = await events().eventsById('edupass', [id]);
  if (row === undefined) throw new Error(`event ${id} is not stored`);
  return row;
};

const event = (extra: Partial<ReportEvent> = {}): ReportEvent => ({
  e: 'lesson_open',
  i: randomUUID(),
  t: Math.floor(Date.now() / 1000),
  d: { lesson: 7 },
  ...extra,
});

const batch = (events: ReportEvent[], product = 'edupass'): ReportPayload => ({
  type: 0,
  alg: '',
  data: {
    m: { d: 1, p: product, tst: 0, h: 0 },
    e: { uid: 'device-1', process_id: 'page-1', ua: 'test-agent', la: 'zh-CN', cpu: 8, density: 2, resolution: '1x1' },
    b: events,
  },
});

/** Posts as the tracker does: a text/plain body. */
const report = (body: unknown, product = 'edupass', headers: Record<string, string> = {}) =>
  call('POST', `/report/${product}`, undefined, {
    raw: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
  });

describe('POST /report/:product', () => {
  it('stores a short-key batch and answers 204 with an open CORS header', async () => {
    const before = await storedEvents();
    const timed = event({ e: 'video', dur: 1234 });
    const answer = await report(batch([event(), timed]));
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(await storedEvents()).toBe(before + 2);
    const row = await storedEvent(timed.i);
    expect(row).toMatchObject({
      product_code: 'edupass',
      event_key: 'video',
      at: timed.t * 1000,
      dur: 1234,
      device_uid: 'device-1',
      ip: '127.0.0.1',
      language: 'zh-CN',
      cpu: 8,
      density: 2,
    });
    expect(JSON.parse(row.data)).toEqual({ lesson: 7 });
  });

  it('a batch sent twice is stored once', async () => {
    const events = [event(), event(), event()];
    const before = await storedEvents();
    expect((await report(batch(events))).status).toBe(204);
    expect((await report(batch(events))).status).toBe(204);
    // A retry that overlaps a new batch keeps the new events and drops the repeats.
    expect((await report(batch([events[0]!, event()]))).status).toBe(204);
    expect(await storedEvents()).toBe(before + 4);
  });

  it('a NUL in an event key or a text field is E_1 on every database, and other reports still land', async () => {
    const before = await storedEvents();
    const withNulKey = batch([event({ e: 'lesson\u0000open' })]);
    const withNulField = batch([event()]);
    withNulField.data.e.ua = 'agent\u0000';
    const good = event();
    const answers = await Promise.all([report(withNulKey), report(batch([good])), report(withNulField)]);
    expect(answers.map((a) => a.status)).toEqual([400, 204, 400]);
    expect(answers[0]!.body).toMatchObject({ error_code: 'E_1' });
    expect(answers[2]!.body).toMatchObject({ error_code: 'E_1' });
    expect(await storedEvents()).toBe(before + 1);
  });

  it('takes the ip from proxy headers only when trust proxy is configured', async () => {
    const e = event();
    await report(batch([e]), 'edupass', { 'x-forwarded-for': '203.0.113.9' });
    const row = await storedEvent(e.i);
    expect(row.ip).toBe('127.0.0.1');
  });

  it('keeps no ip for a client that sent no device info (no device consent)', async () => {
    const e = event();
    const body = batch([e]);
    body.data.e = {};
    expect((await report(body)).status).toBe(204);
    const row = await storedEvent(e.i);
    expect(row).toMatchObject({ ip: '', device_uid: null, ua: null });
  });

  it('a known product only, the same in the path and in data.m.p', async () => {
    const before = await storedEvents();
    expectError(await report(batch([event()], 'nope'), 'nope'), 'E_2');
    expectError(await report(batch([event()], 'edupass'), 'other'), 'E_1');
    expectError(await report(batch([event()], 'other'), 'edupass'), 'E_1');
    expect(await storedEvents()).toBe(before);
  });

  const big = 'x'.repeat(TRACKER.eventSizeLimit);
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const malformed: [string, unknown][] = [
    ['not JSON', '{"type":0,'],
    ['an empty body', ''],
    ['an array', [batch([event()])]],
    ['type 1', { ...batch([event()]), type: 1 }],
    ['an encrypted batch', { ...batch([event()]), alg: 'aes' }],
    ['no events', batch([])],
    ['an event without a key', batch([event(), event({ e: '' })])],
    ['a key over 128 characters', batch([event({ e: 'k'.repeat(129) })])],
    ['a bad event id', batch([event({ i: "1' OR 1=1 --" })])],
    ['a time in milliseconds', batch([event({ t: Date.now() })])],
    ['a string time', batch([{ ...event(), t: '1700000000' } as unknown as ReportEvent])],
    ['array biz data', batch([{ ...event(), d: [1, 2] } as unknown as ReportEvent])],
    ['a negative duration', batch([event({ dur: -5 })])],
    ['a fractional duration', batch([event({ dur: 1.5 })])],
    ['an event over 5000 (3× JSON length)', batch([event({ d: { s: big.slice(0, 1700) } })])],
    ['an over-long user agent', { ...batch([event()]), data: { ...batch([]).data, e: { ua: big }, b: [event()] } }],
    ['an env that is a string', { ...batch([event()]), data: { ...batch([]).data, e: 'x', b: [event()] } }],
    [
      'deeply nested data',
      `{"type":0,"alg":"","data":{"m":{"d":1,"p":"edupass"},"b":[{"e":"k","i":"${randomUUID()}","t":1,"d":{"x":${deep}}}]}}`,
    ],
  ];
  it.each(malformed)('refuses %s with 400 E_1 and stores nothing', async (_name, body) => {
    const before = await storedEvents();
    const answer = await report(body);
    expectError(answer, 'E_1');
    expect(await storedEvents()).toBe(before);
  });

  it.each([
    ['30 events of 1200 characters', Array.from({ length: 30 }, () => event({ d: { s: 'y'.repeat(1200) } }))],
    ['more than 1000 events', Array.from({ length: 1001 }, () => ({ e: 'k', i: randomUUID(), t: 1, d: {} }))],
  ])('refuses a body over 30000 bytes (%s) with 413 and stores nothing', async (_name, events) => {
    const before = await storedEvents();
    const answer = await report(batch(events));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error_code: 'E_1' });
    expect(await storedEvents()).toBe(before);
  });

  it('a batch of CJK text is counted like the SDK counts it (3× the characters)', async () => {
    const fits = batch(Array.from({ length: 5 }, () => event({ d: { s: '汉'.repeat(1500) } })));
    expect(JSON.stringify(fits).length * 3).toBeLessThanOrEqual(TRACKER.requestSizeLimit);
    expect((await report(fits)).status).toBe(204);
  });

  it('hostile keys are stored as data, never as behaviour', async () => {
    const e = event();
    const raw = JSON.stringify(batch([e])).replace(
      '"d":{"lesson":7}',
      '"d":{"__proto__":{"admin":true},"constructor":1}',
    );
    expect((await report(raw)).status).toBe(204);
    const row = await storedEvent(e.i);
    expect(JSON.parse(row.data)).toEqual(JSON.parse('{"__proto__":{"admin":true},"constructor":1}'));
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('GET /report/time', () => {
  it('answers the server time in unix ms', async () => {
    const before = Date.now();
    const answer = await call<{ now: number }>('GET', '/report/time');
    expect(answer.status).toBe(200);
    expect(answer.body.now).toBeGreaterThanOrEqual(before);
    expect(answer.body.now).toBeLessThanOrEqual(Date.now());
  });
});

describe('/monitor/beacon', () => {
  it('GET stores the query fields and answers a 1×1 GIF', async () => {
    const before = await storedBeacons();
    const response = await fetch(
      `${server.url}/monitor/beacon?k=api&p=edupass&pg=%2Flessons&t=${Date.now()}&u=%2Fv1%2Fx&m=GET&c=601&v=12&b=0`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 6)
        .toString(),
    ).toBe('GIF89a');
    expect(await storedBeacons()).toBe(before + 1);
  });

  it('POST takes the same fields URL-encoded in the body and answers 204', async () => {
    const before = await storedBeacons();
    const response = await fetch(`${server.url}/monitor/beacon`, {
      method: 'POST',
      body: new URLSearchParams({
        k: 'error',
        p: 'edupass',
        pg: '/',
        t: '1',
        n: 'boom',
        s: 'x'.repeat(1500),
      }).toString(),
    });
    expect(response.status).toBe(204);
    expect(await storedBeacons()).toBe(before + 1);
  });

  it.each([
    ['an unknown kind', 'k=spy&p=edupass'],
    ['no product', 'k=error&n=x'],
    ['a perf beacon of an unknown metric', 'k=perf&p=edupass&n=FOO&v=1'],
    ['a non-numeric value', 'k=perf&p=edupass&n=LCP&v=abc'],
    ['an api beacon without a code', 'k=api&p=edupass&u=/x'],
    ['a repeated field', 'k=error&p=edupass&n=a&n=b'],
    ['an over-long stack', `k=error&p=edupass&n=a&s=${'z'.repeat(3000)}`],
  ])('refuses %s with 400 and stores nothing', async (_name, query) => {
    const before = await storedBeacons();
    const answer = await call('GET', `/monitor/beacon?${query}`);
    expectError(answer, 'E_1');
    expect(await storedBeacons()).toBe(before);
  });

  it('refuses an unknown product with 404', async () => {
    expectError(await call('GET', '/monitor/beacon?k=error&p=ghost&n=x'), 'E_2');
  });
});

describe('admin queries', () => {
  const day = 86_400_000;
  const from = Date.UTC(2026, 0, 1);

  beforeAll(async () => {
    // Two devices, one signed-in user, timed events with known durations, on two days.
    const events = [
      ...[100, 200, 300, 400, 500, 600, 700, 800, 900, 1000].map((dur, n) =>
        event({ e: 'video', dur, t: (from + (n < 5 ? 0 : day)) / 1000 + n }),
      ),
      event({ e: 'open', t: from / 1000 }),
    ];
    const first = batch(events.slice(0, 6));
    first.data.e = { uid: 'dev-a', user_id: 'u1', ua: 'x' };
    const second = batch(events.slice(6));
    second.data.e = { uid: 'dev-b', ua: 'x' };
    expect((await report(first)).status).toBe(204);
    expect((await report(second)).status).toBe(204);
    const beacon = (query: string) => fetch(`${server.url}/monitor/beacon?p=edupass&pg=/&t=1&${query}`);
    for (const value of [100, 200, 300, 400]) await beacon(`k=perf&n=LCP&v=${value}`);
    await beacon('k=error&n=admin-boom');
    await beacon('k=error&n=admin-boom');
    await beacon('k=error&n=admin-other');
    await beacon('k=api&u=/v1/a&m=GET&c=200&b=0');
    await beacon('k=api&u=/v1/a&m=GET&c=404&b=1');
    await beacon('k=api&u=/v1/a&m=GET&c=601&b=0');
  });

  const operatorToken = async () => {
    const account = await signUp(server);
    await server.app.ctx.db
      .updateTable('users')
      .set({ role: 'operator', operator_duties: 'system' })
      .where('id', '=', account.userId)
      .execute();
    // Changed behind the services' back: forgotten as their changes are (services/sessions/cache.ts).
    server.app.ctx.sessions.forgetUser(account.userId);
    return account.token;
  };
  const window = `product=edupass&from=${from}&to=${from + 2 * day}`;

  it('refuses visitors (E_0) and signed-in users without the operator role (E_4)', async () => {
    expectError(await call('GET', `/admin/usage/uniques?${window}`), 'E_0');
    const user = await signUp(server);
    expectError(await call('GET', `/admin/usage/uniques?${window}`, undefined, { token: user.token }), 'E_4');
  });

  it('answers counts over time, uniques, duration percentiles, errors, API failure rates and p75 vitals', async () => {
    const token = await operatorToken();
    const get = async (path: string) => {
      const answer = await call('GET', path, undefined, { token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };
    expect(await get(`/admin/usage/events?${window}&bucket=day`)).toEqual([
      { key: 'open', bucket: from, count: 1 },
      { key: 'video', bucket: from, count: 5 },
      { key: 'video', bucket: from + day, count: 5 },
    ]);
    expect(await get(`/admin/usage/uniques?${window}`)).toEqual({ devices: 2, users: 1, events: 11 });
    expect(await get(`/admin/usage/durations?${window}&key=video`)).toEqual({
      key: 'video',
      count: 10,
      // Nearest rank, PostgreSQL's percentile_disc: the ⌈f·n⌉-th smallest.
      p50: 500,
      p75: 800,
      p90: 900,
      p99: 1000,
    });
    const now = `product=edupass&from=${Date.now() - day}&to=${Date.now() + 1000}`;
    const errors = (await get(`/admin/monitor/errors?${now}`)) as { message: string }[];
    expect(errors.filter((row) => row.message.startsWith('admin-'))).toEqual([
      { message: 'admin-boom', count: 2 },
      { message: 'admin-other', count: 1 },
    ]);
    expect(await get(`/admin/monitor/api?${now}`)).toContainEqual({
      path: '/v1/a',
      failures: 2,
      business_errors: 1,
      estimated_calls: 12,
      failure_rate: 2 / 12,
    });
    expect(await get(`/admin/monitor/vitals?${now}`)).toContainEqual({ name: 'LCP', count: 4, p75: 300 });
    expectError(await call('GET', '/admin/usage/uniques?from=1', undefined, { token }), 'E_1');
  });
});

describe('retention', () => {
  it('the sweep settles the dashboards of past hours, and their answers stay what they were', async () => {
    const sent = event();
    expect((await report(batch([sent]))).status).toBe(204);
    const [row] = await events().eventsById('edupass', [sent.i]);
    const yesterday = Date.now() - 86_400_000;
    const past = Array.from({ length: 6 }, (_, n) => ({
      ...row!,
      event_id: randomUUID(),
      event_key: 'settle_me',
      at: yesterday + n * 600_000,
      received_at: yesterday + n * 600_000,
      device_uid: `settle-device-${n % 2}`,
    }));
    await events().write({ events: [...past, ...past.slice(0, 2)], beacons: [] });
    const w = { product: 'edupass', from: yesterday - 3_600_000, to: yesterday + 2 * 3_600_000 };
    const before = {
      counts: await events().eventCounts(w, 3_600_000, 'settle_me'),
      uniques: await events().uniques(w),
    };
    expect(before.counts.reduce((sum, c) => sum + c.count, 0)).toBe(6);
    const sweptAt = Date.now();
    await sweepOnce(server.app.ctx);
    // Nothing closed before the sweep is left to settle: the sweep did it (SQL has nothing to settle).
    expect(await events().settle(sweptAt)).toEqual({ hours: 0, days: 0 });
    expect(await events().eventCounts(w, 3_600_000, 'settle_me')).toEqual(before.counts);
    expect(await events().uniques(w)).toEqual(before.uniques);
  });

  it('deletes what was received before the retention window', async () => {
    const old = event();
    const recent = event();
    expect((await report(batch([recent]))).status).toBe(204);
    // Received a day and more before the window: gone on every store (ClickHouse drops whole days).
    const [row] = await events().eventsById('edupass', [recent.i]);
    const receivedAt = Date.now() - (server.app.ctx.config.usageRetentionDays + 2) * 86_400_000;
    await events().write({ events: [{ ...row!, event_id: old.i, received_at: receivedAt }], beacons: [] });
    expect((await events().eventsById('edupass', [old.i])).length).toBe(1);
    await sweepOnce(server.app.ctx);
    expect(await events().eventsById('edupass', [old.i])).toEqual([]);
    // What was received within the window stays.
    expect((await events().eventsById('edupass', [recent.i])).map((e) => e.event_id)).toEqual([recent.i]);
  });
});

describe('with CORS origins configured for the account API', () => {
  it('the collector still takes reports from any site, and a preflight is answered', async () => {
    const strict = await startTestServer({ corsOrigins: ['https://console.example'] });
    try {
      const post = await fetch(`${strict.url}/report/edupass`, {
        method: 'POST',
        headers: { origin: 'https://some-school.example', 'content-type': 'text/plain' },
        body: JSON.stringify(batch([event()])),
      });
      expect(post.status).toBe(204);
      expect(post.headers.get('access-control-allow-origin')).toBe('*');
      const preflight = await fetch(`${strict.url}/report/edupass`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://some-school.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBeLessThan(300);
    } finally {
      await strict.close();
    }
  });
});
