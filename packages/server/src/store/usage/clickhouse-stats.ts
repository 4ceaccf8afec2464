/**
 * The console's queries on ClickHouse. Exactly once: an event or beacon may be stored more than once
 * until ReplacingMergeTree merges its copies (or forever, when the copies sit in different daily
 * partitions), so every count is `uniqExact` of the id (event counts and uniques merge the exact id
 * sets of the hourly rollups in store/usage/clickhouse-rollups.ts) — exact, unlike `uniq`, whose adaptive sample
 * is exact only up to 65 536 values and then off by about 1%. Settled hours are read from what the
 * sweep settled (clickhouse-settled.ts, clickhouse-breakdowns.ts). Percentiles take one value per id
 * and the nearest rank ⌈f·n⌉ of the sorted values, the definition PostgreSQL's `percentile_disc` uses.
 */

import type { ClickHouseClient } from '@clickhouse/client';
import { HOUR_MS } from '@edupass/protocol';
import { BEACON_GROUPS, breakdownSql, DURATIONS, rankedSql, SPANS, VITALS } from './clickhouse-breakdowns.ts';

import { int, rowsOf, str } from './clickhouse-schema.ts';
import { hourCounts } from './clickhouse-settled.ts';
import { visitorsSql } from './clickhouse-visitors.ts';
import type { EventCount, EventsStore, Window } from './events-store.ts';
import { splitWindow } from './window.ts';

type Stats = Pick<
  EventsStore,
  | 'eventCounts'
  | 'uniques'
  | 'durationPercentiles'
  | 'errorCounts'
  | 'apiOutcomes'
  | 'vitalPercentile'
  | 'errorGroups'
  | 'apiCodes'
  | 'vitalsSeries'
>;

type Text = string | null;
type Num = string | number;
const num = (value: Num | null): number | null => (value === null ? null : Number(value));

/** A failed call: no response (601–604) or an HTTP status outside 200–399 (NULL code: neither). */
const FAILED = 'ifNull(code < 200 OR code >= 400, 0)';
const SUCCEEDED = 'ifNull(code >= 200 AND code < 400, 0)';

/** Strings in ClickHouse's order (bytes), as `ORDER BY` would sort them. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * Events per key and bucket, each id once: whole hours from the settled counts or the rollup's id sets
 * (store/usage/clickhouse-settled.ts), partial hours from the events, summed per bucket (an id lives
 * in one hour: its copies share `at`). A bucket that is not whole hours is counted from the events.
 */
const eventCounts = async (client: ClickHouseClient, w: Window, bucketMs: number, key: string | undefined) => {
  const size = int(bucketMs);
  const ofKey = key === undefined ? '' : `AND event_key = ${str(key)}`;
  const hourly = bucketMs % HOUR_MS === 0;
  const { whole, edges } = hourly
    ? splitWindow(w.from, w.to, HOUR_MS)
    : { whole: undefined, edges: w.from < w.to ? [[w.from, w.to] as const] : [] };
  const within = edges.map(([from, to]) => `(at >= ${int(from)} AND at < ${int(to)})`).join(' OR ');
  const [hours, raw] = await Promise.all([
    whole
      ? hourCounts(
          client,
          `product_code = ${str(w.product)} AND hour >= ${int(whole[0])} AND hour < ${int(whole[1])} ${ofKey}`,
        )
      : [],
    edges.length > 0
      ? rowsOf<{ key: string; bucket: Num; n: Num }>(
          client,
          `SELECT event_key AS key, intDiv(at, ${size}) * ${size} AS bucket, uniqExact(event_id) AS n
           FROM usage_events WHERE product_code = ${str(w.product)} AND (${within}) ${ofKey} GROUP BY key, bucket`,
        )
      : [],
  ]);
  const sums = new Map<string, EventCount>();
  const add = (eventKey: string, bucket: number, count: number) => {
    const id = `${bucket} ${eventKey}`;
    const entry = sums.get(id);
    if (entry) entry.count += count;
    else sums.set(id, { key: eventKey, bucket, count });
  };
  for (const row of hours) add(row.key, Math.floor(row.hour / bucketMs) * bucketMs, row.count);
  for (const row of raw) add(row.key, Number(row.bucket), Number(row.n));
  return [...sums.values()]
    .filter((entry) => entry.count > 0)
    .sort((a, b) => a.bucket - b.bucket || byBytes(a.key, b.key));
};

/** Nearest-rank values of counted values (columns v, c) at each fraction, with how many there are. */
const percentiles = async (client: ClickHouseClient, counted: string, fractions: number[]) => {
  const [row] = await rowsOf<Record<string, Num>>(client, rankedSql(counted, fractions));
  const n = Number(row?.n ?? 0);
  return { count: n, values: fractions.map((_, i) => (n === 0 ? null : num(row?.[`p${i}`] ?? null))) };
};

export const clickhouseStats = (client: ClickHouseClient): Stats => ({
  eventCounts: (w, bucketMs, key) => eventCounts(client, w, bucketMs, key),

  uniques: async (w) => {
    // Two reads at once: visitors (settled days, then masks and events) and the events, counted per hour.
    const [[visitors], counts] = await Promise.all([
      visitorsSql(client, w).then((query) => rowsOf<{ devices: Num; users: Num }>(client, query)),
      eventCounts(client, w, HOUR_MS, undefined),
    ]);
    return {
      devices: Number(visitors?.devices ?? 0),
      users: Number(visitors?.users ?? 0),
      events: counts.reduce((sum, entry) => sum + entry.count, 0),
    };
  },

  durationPercentiles: async (w, key, fractions) => {
    const rows = await breakdownSql(client, DURATIONS, w, key);
    return percentiles(client, `SELECT value AS v, events AS c FROM (${rows})`, fractions);
  },

  errorCounts: async (w, limit) =>
    (
      await rowsOf<{ message: Text; n: Num }>(
        client,
        `SELECT name AS message, sum(beacons) AS n FROM (${await breakdownSql(client, BEACON_GROUPS, w, 'error')})
         GROUP BY message ORDER BY n DESC, message LIMIT ${int(limit)}`,
      )
    ).map((row) => ({ message: row.message, count: Number(row.n) })),

  apiOutcomes: async (w, limit) =>
    (
      await rowsOf<{ path: Text; failures: Num; successes: Num; flagged: Num }>(
        client,
        `SELECT url AS path, sumIf(beacons, ${FAILED}) AS failures, sumIf(beacons, ${SUCCEEDED}) AS successes,
           sumIf(beacons, ifNull(business = 1, 0)) AS flagged
         FROM (${await breakdownSql(client, BEACON_GROUPS, w, 'api')})
         GROUP BY path ORDER BY failures DESC, path LIMIT ${int(limit)}`,
      )
    ).map((row) => ({
      path: row.path,
      failures: Number(row.failures),
      successes: Number(row.successes),
      business: Number(row.flagged),
    })),

  vitalPercentile: async (w, name, f) => {
    const rows = await breakdownSql(client, VITALS, w, 'perf', `name = ${str(name)}`);
    const { count, values } = await percentiles(client, `SELECT value AS v, beacons AS c FROM (${rows})`, [f]);
    return { count, value: values[0] ?? null };
  },

  errorGroups: async (w, limit) =>
    (
      await rowsOf<{ message: Text; n: Num; pages: Num; seen: Num }>(
        client,
        `SELECT name AS message, sum(beacons) AS n, uniqExact(page) AS pages, max(last_seen) AS seen
         FROM (${await breakdownSql(client, BEACON_GROUPS, w, 'error')})
         GROUP BY message ORDER BY n DESC, message LIMIT ${int(limit)}`,
      )
    ).map((row) => ({
      message: row.message,
      count: Number(row.n),
      pages: Number(row.pages),
      last_seen: Number(row.seen),
    })),

  apiCodes: async (w, limit) =>
    (
      await rowsOf<{ path: Text; status: Num; top: Num | null; n: Num }>(
        client,
        `SELECT url AS path, assumeNotNull(code) AS status, max(business) AS top, sum(beacons) AS n
         FROM (${await breakdownSql(client, BEACON_GROUPS, w, 'api', FAILED)})
         GROUP BY path, status ORDER BY n DESC, path, status LIMIT ${int(limit)}`,
      )
    ).map((row) => ({ path: row.path, code: Number(row.status), business: Number(row.top), count: Number(row.n) })),

  vitalsSeries: async (w, bucketMs) => {
    // Settled periods are read whole: only those a bucket holds whole (the console's are hours and days).
    if (bucketMs % HOUR_MS !== 0) throw new Error(`vitals buckets are whole hours, not ${bucketMs} ms`);
    const size = int(bucketMs);
    const spans = SPANS.filter((span) => bucketMs % span === 0);
    const rows = await breakdownSql(client, VITALS, w, 'perf', '1', spans);
    return (
      await rowsOf<{ name: string; bucket: Num; n: Num; p0: Num }>(
        client,
        `${rankedSql(
          `SELECT name, intDiv(period, ${size}) * ${size} AS bucket, value AS v, beacons AS c FROM (${rows})`,
          [0.75],
          ['name', 'bucket'],
        )} ORDER BY bucket, name`,
      )
    ).map((row) => ({ name: row.name, bucket: Number(row.bucket), count: Number(row.n), value: Number(row.p0) }));
  },
});
