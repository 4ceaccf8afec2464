/**
 * The events store on every backend (SQLite, PostgreSQL, and ClickHouse in the server-clickhouse
 * project): duplicates sent on purpose — a batch retried over HTTP, the same rows written by two
 * instances at once — are counted once in every dashboard; retention; export pages.
 */
import type { ReportPayload } from '@edupass/protocol';
import { testEventsKind } from '@edupass/test-kit/clickhouse-database';
import { useTestServer } from '@edupass/test-kit/harness';
import { usageEventRow } from '@edupass/test-kit/usage-rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageDb } from './events.ts';
import type { EventsStore, NewUsageEvent } from './events-store.ts';
import { openEventsStore } from './events-store-open.ts';

const { server, call } = useTestServer();
const DAY = 86_400_000;
const HOUR = 3_600_000;
const start = Date.UTC(2026, 2, 1);

/** A second server process on the same stores: its own connection, its own writer. */
let other: EventsStore;
beforeAll(async () => {
  const { ctx } = server.app;
  other = await openEventsStore(ctx.config, ctx.db, ctx.readDb, ctx.logger, ctx.now);
});
afterAll(() => other.close());

const store = () => server.app.ctx.events;

const eventRow = (product: string, n: number, receivedAt: number): NewUsageEvent =>
  usageEventRow({
    product_code: product,
    event_key: `key_${n % 3}`,
    at: start + n * 37 * 60_000,
    received_at: receivedAt,
    dur: n % 2 === 0 ? 100 + ((n * 7919) % 1000) : null,
    device_uid: `device-${n % 11}`,
    user_id: n % 4 === 0 ? `user-${n % 5}` : null,
  });

/** The tracker's batch for these rows (the server stamps received_at itself). */
const asReport = (product: string, rows: NewUsageEvent[], uid: string): ReportPayload => ({
  type: 0,
  alg: '',
  data: {
    m: { d: 1, p: product, tst: 0, h: 0 },
    e: { uid },
    b: rows.map((row) => ({
      e: row.event_key,
      i: row.event_id,
      t: row.at / 1000,
      d: {},
      ...(row.dur === null ? {} : { dur: row.dur }),
    })),
  },
});

const post = (product: string, payload: ReportPayload) =>
  call('POST', `/report/${product}`, undefined, {
    raw: JSON.stringify(payload),
    headers: { 'content-type': 'text/plain' },
  });

/** The nearest-rank percentile of `values` (the definition every store answers). */
const nearest = (values: number[], f: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(f * sorted.length)) - 1] ?? null;
};

describe(`events store (${testEventsKind() === 'clickhouse' ? 'ClickHouse' : process.env.EDUPASS_TEST_DB})`, () => {
  it('is the store the configuration names', () => {
    expect(store().kind).toBe(testEventsKind());
  });

  it('counts an event id sent twice once in every dashboard: HTTP retries and two instances writing at once', async () => {
    const product = 'edupass';
    const rows = Array.from({ length: 120 }, (_, n) => eventRow(product, n, Date.now()));
    // Over HTTP, each batch twice (a client retry), with one device per batch.
    const viaHttp = rows.slice(0, 60);
    for (let i = 0; i < viaHttp.length; i += 20) {
      const payload = asReport(product, viaHttp.slice(i, i + 20), `device-${i}`);
      expect((await post(product, payload)).status).toBe(204);
      expect((await post(product, payload)).status).toBe(204);
    }
    // Directly, the same rows by two instances at once, then once more by one of them.
    const direct = rows.slice(60);
    await Promise.all([store().write({ events: direct, beacons: [] }), other.write({ events: direct, beacons: [] })]);
    await other.write({ events: direct.slice(0, 30), beacons: [] });

    const w = { product, from: start, to: start + 4 * DAY };
    const distinct = [
      ...viaHttp.map((row, n) => ({ ...row, device_uid: `device-${n - (n % 20)}`, user_id: null })),
      ...direct,
    ];
    const perDay = new Map<string, number>();
    for (const row of distinct) {
      const key = `${row.event_key}|${Math.floor(row.at / DAY) * DAY}`;
      perDay.set(key, (perDay.get(key) ?? 0) + 1);
    }
    const expected = [...perDay]
      .map(([key, count]) => {
        const [name, bucket] = key.split('|');
        return { key: name ?? '', bucket: Number(bucket), count };
      })
      .sort((a, b) => a.bucket - b.bucket || (a.key < b.key ? -1 : 1));
    expect(await store().eventCounts(w, DAY, undefined)).toEqual(expected);
    expect((await store().eventCounts(w, HOUR, 'key_1')).reduce((sum, row) => sum + row.count, 0)).toBe(
      distinct.filter((row) => row.event_key === 'key_1').length,
    );
    expect(await store().uniques(w)).toEqual({
      devices: new Set(distinct.map((row) => row.device_uid)).size,
      users: new Set(distinct.map((row) => row.user_id).filter((id) => id !== null)).size,
      events: 120,
    });
    const durations = distinct
      .filter((row) => row.event_key === 'key_0' && row.dur !== null)
      .map((row) => row.dur ?? 0);
    const fractions = [0.5, 0.75, 0.9, 0.99];
    expect(await store().durationPercentiles(w, 'key_0', fractions)).toEqual({
      count: durations.length,
      values: fractions.map((f) => nearest(durations, f)),
    });
    expect((await store().counts()).events).toBeGreaterThanOrEqual(120);
    expect((await store().eventsById(product, [rows[0]!.event_id, rows[70]!.event_id])).length).toBe(2);
  });

  it('counts a beacon once in every monitoring dashboard, percentiles by nearest rank', async () => {
    const now = Date.now();
    const values = [5, 1, 9, 3, 7, 2, 8];
    const beacon = (name: string, value: number) => ({
      product_code: 'edupass',
      kind: 'perf',
      page: '/',
      name,
      value,
      url: null,
      method: null,
      code: null,
      business: null,
      stack: null,
      ip: '127.0.0.1',
      ua: null,
      at: now,
      received_at: now,
    });
    await store().write({ events: [], beacons: values.map((v) => beacon('INP', v)) });
    const w = { product: 'edupass', from: now - HOUR, to: now + HOUR };
    expect(await store().vitalPercentile(w, 'INP', 0.75)).toEqual({ count: 7, value: nearest(values, 0.75) });
    expect(await store().vitalsSeries(w, DAY)).toContainEqual({
      name: 'INP',
      bucket: Math.floor(now / DAY) * DAY,
      count: 7,
      value: nearest(values, 0.75),
    });
  });

  it('takes quotes and backslashes in keys and products as text, never as SQL', async () => {
    const key = "it's \\' OR 1=1 --";
    const product = "p'\\";
    const row = usageEventRow({ product_code: product, event_key: key, at: start, received_at: Date.now() });
    await store().write({ events: [row], beacons: [] });
    const w = { product, from: start, to: start + HOUR };
    expect(await store().eventCounts(w, HOUR, key)).toEqual([{ key, bucket: start, count: 1 }]);
    expect(await store().eventCounts(w, HOUR, `${key}x`)).toEqual([]);
    expect((await store().eventsById(product, [row.event_id])).map((e) => e.event_key)).toEqual([key]);
  });

  it('retention removes the days received before the cutoff and keeps the rest', async () => {
    const product = 'site2';
    const today = Math.floor(Date.now() / DAY) * DAY;
    const days = [4, 3, 2, 1, 0].map((back) => today - back * DAY);
    const rows = days.flatMap((day, d) =>
      Array.from({ length: 5 }, (_, n) => eventRow(product, d * 5 + n, day + HOUR)),
    );
    await store().write({ events: rows, beacons: [] });
    await store().deleteBefore(today - 2 * DAY);
    const left = await store().eventsById(
      product,
      rows.map((row) => row.event_id),
    );
    expect(new Set(left.map((row) => row.received_at))).toEqual(
      new Set([today - 2 * DAY + HOUR, today - DAY + HOUR, today + HOUR]),
    );
    expect(left.length).toBe(15);
  });

  it('export pages give each stored event once', async () => {
    const seen: string[] = [];
    let after: { product_code: string; event_id: string } | undefined;
    for (;;) {
      const page = await store().eventsAfter(after, 7);
      if (page.length === 0) break;
      seen.push(...page.map((row) => `${row.product_code}/${row.event_id}`));
      after = page.at(-1);
    }
    expect(seen.length).toBe(new Set(seen).size);
    expect(seen.length).toBe((await store().counts()).events);
  });

  it.runIf(testEventsKind() === 'clickhouse')(
    'with ClickHouse, no event or beacon row is in the accounts database',
    async () => {
      const db = usageDb(server.app.ctx.db);
      const events = await db
        .selectFrom('usage_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const beacons = await db
        .selectFrom('monitor_beacons')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect([Number(events.n), Number(beacons.n)]).toEqual([0, 0]);
      expect((await store().counts()).events).toBeGreaterThan(0);
    },
  );
});
