/**
 * The console's queries on ClickHouse. Exactly once: an event or beacon may be stored more than once
 * until ReplacingMergeTree merges its copies (or forever, when the copies sit in different daily
 * partitions), so every count is `uniqExact` of the id (event counts and uniques merge the exact id
 * sets of the hourly rollups in store/usage/clickhouse-rollups.ts) — exact, unlike `uniq`, whose adaptive sample
 * is exact only up to 65 536 values and then off by about 1%. Percentiles take one value per id and
 * the nearest rank ⌈f·n⌉ of the sorted values, the definition PostgreSQL's `percentile_disc` uses.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { HOUR_MS } from './clickhouse-rollups.ts';
import { fraction, int, rowsOf, str } from './clickhouse-schema.ts';
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

const eventsIn = (w: Window) => `product_code = ${str(w.product)} AND at >= ${int(w.from)} AND at < ${int(w.to)}`;
const beaconsIn = (w: Window, kind: string) =>
  `product_code = ${str(w.product)} AND kind = ${str(kind)} AND received_at >= ${int(w.from)} AND received_at < ${int(w.to)}`;
/** A failed call: no response (601–604) or an HTTP status outside 200–399 (NULL code: neither). */
const FAILED = 'ifNull(code < 200 OR code >= 400, 0)';
const SUCCEEDED = 'ifNull(code >= 200 AND code < 400, 0)';

/**
 * Nearest-rank values of `values` (one per id, from `from`) at each fraction, with their count, in one
 * query: the sorted array's element ⌈f·n⌉ (arrays count from 1).
 */
const percentileSql = (from: string, fractions: number[]) => {
  const picks = fractions.map(
    (f, i) => `arrayElement(sorted, toUInt64(greatest(1, ceil(${fraction(f)} * n)))) AS p${i}`,
  );
  return `SELECT n, ${fractions.map((_, i) => `p${i}`).join(', ')} FROM (
    SELECT count() AS n, arraySort(groupArray(v)) AS sorted, ${picks.join(', ')} FROM (${from}))`;
};

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

const percentiles = async (client: ClickHouseClient, from: string, fractions: number[]) => {
  const [row] = await rowsOf<Record<string, Num>>(client, percentileSql(from, fractions));
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

  durationPercentiles: (w, key, fractions) =>
    percentiles(
      client,
      `SELECT any(duration) AS v FROM usage_durations
       WHERE ${eventsIn(w)} AND event_key = ${str(key)} GROUP BY event_id`,
      fractions,
    ),

  errorCounts: async (w, limit) =>
    (
      await rowsOf<{ message: Text; n: Num }>(
        client,
        `SELECT name AS message, uniqExact(beacon_id) AS n FROM monitor_beacons WHERE ${beaconsIn(w, 'error')}
         GROUP BY message ORDER BY n DESC, message LIMIT ${int(limit)}`,
      )
    ).map((row) => ({ message: row.message, count: Number(row.n) })),

  apiOutcomes: async (w, limit) =>
    (
      await rowsOf<{ path: Text; failures: Num; successes: Num; flagged: Num }>(
        client,
        `SELECT url AS path, uniqExactIf(beacon_id, ${FAILED}) AS failures,
           uniqExactIf(beacon_id, ${SUCCEEDED}) AS successes, uniqExactIf(beacon_id, ifNull(business = 1, 0)) AS flagged
         FROM monitor_beacons WHERE ${beaconsIn(w, 'api')}
         GROUP BY path ORDER BY failures DESC, path LIMIT ${int(limit)}`,
      )
    ).map((row) => ({
      path: row.path,
      failures: Number(row.failures),
      successes: Number(row.successes),
      business: Number(row.flagged),
    })),

  vitalPercentile: async (w, name, f) => {
    const { count, values } = await percentiles(
      client,
      `SELECT any(assumeNotNull(value)) AS v FROM monitor_beacons
       WHERE ${beaconsIn(w, 'perf')} AND name = ${str(name)} AND value IS NOT NULL GROUP BY beacon_id`,
      [f],
    );
    return { count, value: values[0] ?? null };
  },

  errorGroups: async (w, limit) =>
    (
      await rowsOf<{ message: Text; n: Num; pages: Num; last_seen: Num }>(
        client,
        `SELECT name AS message, uniqExact(beacon_id) AS n, uniqExact(page) AS pages, max(received_at) AS last_seen
         FROM monitor_beacons WHERE ${beaconsIn(w, 'error')}
         GROUP BY message ORDER BY n DESC, message LIMIT ${int(limit)}`,
      )
    ).map((row) => ({
      message: row.message,
      count: Number(row.n),
      pages: Number(row.pages),
      last_seen: Number(row.last_seen),
    })),

  apiCodes: async (w, limit) =>
    (
      await rowsOf<{ path: Text; status: Num; top: Num | null; n: Num }>(
        client,
        `SELECT url AS path, assumeNotNull(code) AS status, max(business) AS top, uniqExact(beacon_id) AS n
         FROM monitor_beacons WHERE ${beaconsIn(w, 'api')} AND ${FAILED}
         GROUP BY path, status ORDER BY n DESC, path, status LIMIT ${int(limit)}`,
      )
    ).map((row) => ({ path: row.path, code: Number(row.status), business: Number(row.top), count: Number(row.n) })),

  vitalsSeries: async (w, bucketMs) =>
    (
      await rowsOf<{ name: string; bucket: Num; n: Num; value: Num }>(
        client,
        `SELECT vital AS name, bucket, count() AS n, arrayElement(arraySort(groupArray(v)), toUInt64(greatest(1, ceil(0.75 * n)))) AS value
         FROM (
           SELECT any(assumeNotNull(name)) AS vital, intDiv(any(received_at), ${int(bucketMs)}) * ${int(bucketMs)} AS bucket,
             any(assumeNotNull(value)) AS v
           FROM monitor_beacons
           WHERE ${beaconsIn(w, 'perf')} AND name IS NOT NULL AND value IS NOT NULL GROUP BY beacon_id
         )
         GROUP BY vital, bucket ORDER BY bucket, vital`,
      )
    ).map((row) => ({ name: row.name, bucket: Number(row.bucket), count: Number(row.n), value: Number(row.value) })),
});
