/**
 * The settled breakdowns on ClickHouse (server-clickhouse project): duration percentiles and every
 * monitoring dashboard answer what the distinct rows written answer — before the sweep, from settled
 * hours, after copies of settled beacons and events are inserted again (a spool replay) and a late
 * batch lands in settled hours, with a half-written settle in the tables, and after retention.
 */
import { partsBeforeDay, testEventsKind } from '@edupass/test-kit/clickhouse-database';
import { clickhouseEventsSuite } from '@edupass/test-kit/clickhouse-events-suite';
import { usageEventRow } from '@edupass/test-kit/usage-rows';
import { describe, expect, it } from 'vitest';
import { BREAKDOWN_TABLES, BREAKDOWNS } from './clickhouse-breakdowns.ts';
import type { EventsStore, NewBeacon, NewUsageEvent, Window } from './events-store.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const FRACTIONS = [0.5, 0.75, 0.9, 0.99];
const VITAL_NAMES = ['LCP', 'INP', 'CLS'];

/** The ⌈f·n⌉-th smallest value, null when there is none. */
const nearest = (values: number[], f: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : (sorted[Math.max(1, Math.ceil(f * sorted.length)) - 1] ?? null);
};

/** Entries of a map of groups, each group's rows reduced by `answer`. */
const grouped = <T, R>(rows: T[], key: (row: T) => string, answer: (rows: T[], id: string) => R): R[] => {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return [...groups].map(([id, members]) => answer(members, id));
};

const failed = (b: NewBeacon) => b.code != null && (b.code < 200 || b.code >= 400);
const succeeded = (b: NewBeacon) => b.code != null && b.code >= 200 && b.code < 400;
const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
const sorted = <T>(rows: T[]) => [...rows].sort(byJson);

/** What every dashboard answers for the distinct events and beacons held (the reference). */
const expected = (events: NewUsageEvent[], beacons: NewBeacon[], w: Window) => {
  const inWindow = beacons.filter(
    (b) => b.product_code === w.product && b.received_at >= w.from && b.received_at < w.to,
  );
  const ofKind = (kind: string) => inWindow.filter((b) => b.kind === kind);
  const vitals = ofKind('perf');
  const durations = events
    .filter((e) => e.product_code === w.product && e.event_key === 'key_0' && e.at >= w.from && e.at < w.to)
    .flatMap((e) => (e.dur == null ? [] : [e.dur]));
  const series = (bucket: number) =>
    grouped(
      vitals,
      (b) => `${b.name} ${Math.floor(b.received_at / bucket) * bucket}`,
      (rows) => ({
        name: rows[0]!.name,
        bucket: Math.floor(rows[0]!.received_at / bucket) * bucket,
        count: rows.length,
        value: nearest(
          rows.map((b) => b.value!),
          0.75,
        ),
      }),
    ).sort((a, b) => a.bucket - b.bucket || (a.name! < b.name! ? -1 : 1));
  return {
    durations: { count: durations.length, values: FRACTIONS.map((f) => nearest(durations, f)) },
    errors: sorted(
      grouped(
        ofKind('error'),
        (b) => b.name!,
        (rows, message) => ({ message, count: rows.length }),
      ),
    ),
    groups: sorted(
      grouped(
        ofKind('error'),
        (b) => b.name!,
        (rows, message) => ({
          message,
          count: rows.length,
          pages: new Set(rows.map((b) => b.page)).size,
          last_seen: Math.max(...rows.map((b) => b.received_at)),
        }),
      ),
    ),
    outcomes: sorted(
      grouped(
        ofKind('api'),
        (b) => b.url!,
        (rows, path) => ({
          path,
          failures: rows.filter(failed).length,
          successes: rows.filter(succeeded).length,
          business: rows.filter((b) => b.business === 1).length,
        }),
      ),
    ),
    codes: sorted(
      grouped(
        ofKind('api').filter(failed),
        (b) => `${b.url} ${b.code}`,
        (rows) => ({
          path: rows[0]!.url,
          code: rows[0]!.code,
          business: Math.max(0, ...rows.map((b) => b.business ?? 0)),
          count: rows.length,
        }),
      ),
    ),
    vitals: VITAL_NAMES.map((name) => {
      const values = vitals.filter((b) => b.name === name).map((b) => b.value!);
      return { count: values.length, value: nearest(values, 0.75) };
    }),
    hourly: series(HOUR),
    daily: series(DAY),
  };
};

/** The store's answers, in the reference's shape (lists sorted, the order by count checked apart). */
const answered = async (store: EventsStore, w: Window) => {
  const [errors, groups, outcomes, codes] = await Promise.all([
    store.errorCounts(w, 100),
    store.errorGroups(w, 100),
    store.apiOutcomes(w, 200),
    store.apiCodes(w, 500),
  ]);
  const descending = (counts: number[]) => counts.every((count, i) => i === 0 || count <= counts[i - 1]!);
  expect(descending(errors.map((row) => row.count))).toBe(true);
  expect(descending(outcomes.map((row) => row.failures))).toBe(true);
  expect(descending(codes.map((row) => row.count))).toBe(true);
  return {
    durations: await store.durationPercentiles(w, 'key_0', FRACTIONS),
    errors: sorted(errors),
    groups: sorted(groups),
    outcomes: sorted(outcomes),
    codes: sorted(codes),
    vitals: await Promise.all(VITAL_NAMES.map((name) => store.vitalPercentile(w, name, 0.75))),
    hourly: await store.vitalsSeries(w, HOUR),
    daily: await store.vitalsSeries(w, DAY),
  };
};

describe.runIf(testEventsKind() === 'clickhouse')('ClickHouse settled breakdowns', () => {
  const suite = clickhouseEventsSuite();
  const { client } = suite;

  const today = Math.floor(Date.now() / DAY) * DAY;
  const start = today - 3 * DAY;
  const at = (n: number) => start + n * 7 * 60_000;
  /** Events every 7 minutes for 45 hours, a quarter timed, received `late` after their time. */
  const events = (product: string, late: number, from = 0) =>
    Array.from({ length: 2 * 24 * 8 }, (_, i) =>
      usageEventRow({
        product_code: product,
        event_key: `key_${i % 2}`,
        at: at(i + from),
        received_at: at(i + from) + late,
        dur: i % 4 === 0 ? ((i + from) * 7919) % 500 : null,
      }),
    );
  /** Beacons every 7 minutes for 45 hours, received `late` after their time: errors, API calls, vitals. */
  const beacons = (product: string, late: number, from = 0): NewBeacon[] =>
    Array.from({ length: 3 * 2 * 24 * 8 }, (_, i) => {
      const n = i + from;
      const kind = ['error', 'api', 'perf'][n % 3]!;
      return {
        product_code: product,
        kind,
        page: `/page-${n % 4}`,
        name: kind === 'error' ? `error-${n % 5}` : kind === 'perf' ? VITAL_NAMES[n % VITAL_NAMES.length]! : null,
        value: kind === 'perf' ? ((n * 7919) % 3000) / (n % 2 === 0 ? 1 : 1000) : null,
        url: kind === 'api' ? `/v1/${n % 4}` : null,
        method: kind === 'api' ? 'GET' : null,
        code: kind === 'api' ? ([200, 404, 500, 601, null, 302][n % 6] ?? null) : null,
        business: kind === 'api' ? ([0, 1, null][n % 3] ?? null) : null,
        stack: null,
        ip: '127.0.0.1',
        ua: null,
        at: at(Math.floor(i / 3) + from),
        received_at: at(Math.floor(i / 3) + from) + late,
      };
    });

  /** Whole days, cut inside hours and days (a day, hours, minutes), a single hour, wider than the data. */
  const windowsOf = (product: string) => [
    { product, from: start, to: start + 2 * DAY },
    { product, from: start + 5 * HOUR + 10 * 60_000, to: start + 2 * DAY + 3 * HOUR },
    { product, from: start + 17 * 60_000, to: start + 29 * HOUR + 5 * 60_000 },
    { product, from: start + DAY + 5 * HOUR, to: start + DAY + 6 * HOUR },
    { product, from: start - DAY, to: start + 4 * DAY },
  ];

  const expectAnswers = async (held: { events: NewUsageEvent[]; beacons: NewBeacon[] }, product: string) => {
    for (const w of windowsOf(product)) {
      expect({ w, ...(await answered(suite.store(), w)) }).toEqual({ w, ...expected(held.events, held.beacons, w) });
    }
  };

  const marked = async (product: string) => {
    const [row] = await (
      await client.query({
        query: `SELECT count() AS n FROM usage_settled_marks WHERE product_code = '${product}'`,
        format: 'JSONEachRow',
      })
    ).json<{ n: string }>();
    return Number(row?.n);
  };

  it('answers from settled hours what the rows answer, copies and late batches in settled hours included', async () => {
    const product = 'settled';
    const held = { events: events(product, 0), beacons: beacons(product, 0) };
    await suite.store().write(held);
    await suite.store().write({ events: held.events.slice(0, 40), beacons: [] }); // a retried batch
    await expectAnswers(held, product);

    expect((await suite.store().settle(Date.now())).hours).toBeGreaterThan(0);
    expect(await marked(product)).toBeGreaterThan(0);
    await expectAnswers(held, product);

    // Copies of settled beacons (a spool replay keeps the ids and arrival times) and events, and a late
    // batch received in settled hours.
    await client.command({
      query: `INSERT INTO monitor_beacons SELECT * FROM monitor_beacons WHERE product_code = '${product}'
        AND received_at >= ${start + 20 * HOUR} AND received_at < ${start + 30 * HOUR}`,
    });
    await suite.store().write({ events: held.events.filter((_, i) => i % 3 === 0), beacons: [] });
    const late = { events: events(product, 0, 1).filter((_, i) => i % 9 === 0), beacons: beacons(product, 0, 1) };
    await suite.store().write({ events: late.events, beacons: late.beacons.filter((_, i) => i % 7 === 0) });
    held.events.push(...late.events);
    held.beacons.push(...late.beacons.filter((_, i) => i % 7 === 0));
    await expectAnswers(held, product);

    // A settle that wrote its rows but never marked them (it stopped half-way) adds nothing.
    const copy = (settle: string, where: string) =>
      Promise.all(
        BREAKDOWNS.map((b) =>
          client.command({
            query: `INSERT INTO ${b.table} SELECT ${settle}, product_code, part, span, period, ${b.columns} FROM ${b.table}
              WHERE ${where}`,
          }),
        ),
      );
    await copy('toUInt64(12345)', `product_code = '${product}'`);
    expect((await suite.store().settle(Date.now())).hours).toBeGreaterThan(0);
    await expectAnswers(held, product);
    // Settled twice at once (two instances' sweeps, each under its own settle id): counted once.
    await copy('settle + 2', `product_code = '${product}' AND settle != 12345`);
    await client.command({
      query: `INSERT INTO usage_settled_marks SELECT breakdown, product_code, part, span, period, rows, hash, settle + 2
        FROM usage_settled_marks WHERE product_code = '${product}'`,
    });
    await expectAnswers(held, product);
  }, 240_000);

  it('drops the settled days with the received days at retention', async () => {
    const product = 'kept';
    const early = { events: events(product, 0), beacons: beacons(product, 0) };
    const later = { events: events(product, 2 * DAY, 2), beacons: beacons(product, 0, 2 * 24 * 8) };
    await suite.store().write(early);
    await suite.store().write(later);
    await suite.store().settle(Date.now());
    const cutoff = start + DAY;
    await suite.store().deleteBefore(cutoff);
    const kept = {
      events: [...early.events, ...later.events].filter((e) => e.received_at >= cutoff),
      beacons: [...early.beacons, ...later.beacons].filter((b) => b.received_at >= cutoff),
    };
    await expectAnswers(kept, product);
    for (const table of BREAKDOWN_TABLES) {
      expect([table, await partsBeforeDay(client, table, cutoff / DAY)]).toEqual([table, 0]);
    }
    // Hours of `at` before the cutoff whose events arrived later are settled again.
    await suite.store().settle(Date.now());
    await expectAnswers(kept, product);
  }, 240_000);
});
