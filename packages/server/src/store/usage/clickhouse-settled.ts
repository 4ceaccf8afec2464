/**
 * Settled answers of the ClickHouse events, kept by the hourly sweep (`settle`) so that a dashboard
 * reads a number per hour and one row per visitor instead of merging millions of ids:
 * - `usage_key_counts`: per (product, key, hour of `at`) the count of distinct event ids;
 * - `usage_visitor_masks`: per (product, device or user, 64-day span) a bit per day of `at` on which
 *   the visitor was seen, with `usage_visitor_days` naming the days whose bits are written. Every day
 *   is in two spans, one of each family: family 0 starts at multiples of 64 days, family 1 32 days
 *   later, so a window of up to 33 days lies within a single span, one row per visitor.
 *
 * Exactly once, without trusting merges: every settled row records the *fingerprint* of what had been
 * inserted for its hour or day when it was computed — the rows inserted and the sum of their hashes,
 * kept by the `usage_key_hours` view (`rows`, `hash`). An insert, a spool replay or a duplicate changes
 * the fingerprint, so the hour or day no longer matches its settled row and is read from the exact id
 * sets or the events instead, until the next sweep settles it again. A settled count is computed in
 * the same read as its fingerprint (one snapshot of `usage_key_hours`); a day's visitors are read from
 * the events *after* its fingerprint (a view gets a block after the events table has it), so the bits
 * hold at least what the fingerprint names. Bits are only ever added: retention, which removes events,
 * drops the spans it touches, which the next sweep settles anew.
 * Only functions and DDL that ClickHouse 18.16 and current releases both accept.
 */

import type { ClickHouseClient } from '@clickhouse/client';
import { DAY_MS, HOUR_MS } from '@edupass/protocol';

import { int, rowsOf, str } from './clickhouse-schema.ts';

/** Days per visitor mask: the bits of a UInt64. */
export const SPAN_DAYS = 64;
const HALF = SPAN_DAYS / 2;

/** The span of a day in a family, as stored: 2·s + family. */
const spanOf = (day: number, family: number) => 2 * Math.floor((day + HALF * family) / SPAN_DAYS) + family;
/** The first day of a stored span. */
const spanStart = (span: number) => {
  const family = span % 2;
  return ((span - family) / 2) * SPAN_DAYS - HALF * family;
};

export const SETTLED_TABLES = ['usage_key_counts', 'usage_visitor_masks', 'usage_visitor_days'] as const;

const DDL = [
  `CREATE TABLE IF NOT EXISTS usage_key_counts (
    product_code String, event_key String, hour Int64, rows UInt64, hash UInt64, events UInt64
  ) ENGINE = ReplacingMergeTree() PARTITION BY intDiv(hour, ${DAY_MS}) ORDER BY (product_code, event_key, hour, rows, hash)`,
  `CREATE TABLE IF NOT EXISTS usage_visitor_masks (
    product_code String, kind UInt8, span Int64, visitor FixedString(16), days AggregateFunction(groupBitOr, UInt64)
  ) ENGINE = AggregatingMergeTree() PARTITION BY span ORDER BY (product_code, kind, span, visitor)`,
  `CREATE TABLE IF NOT EXISTS usage_visitor_days (product_code String, day Int64, rows UInt64, hash UInt64)
  ENGINE = ReplacingMergeTree() PARTITION BY intDiv(day, ${HALF}) ORDER BY (product_code, day, rows, hash)`,
];

export const ensureSettled = async (client: ClickHouseClient): Promise<void> => {
  for (const ddl of DDL) await client.command({ query: ddl });
};

type Num = string | number;

/**
 * Whole hours [from, to) of a product's key rollup with their fingerprints, each with `settled` = 1
 * and its count when a settled row has the same fingerprint (0 otherwise). `condition` narrows the
 * rollup (a key, a time range).
 */
const keyHoursSql = (condition: string) =>
  `SELECT product_code, event_key, hour, rows, hash, events, settled FROM (
     SELECT product_code, event_key, hour, countMerge(rows) AS rows, sumMerge(hash) AS hash
     FROM usage_key_hours WHERE ${condition} GROUP BY product_code, event_key, hour
   ) ANY LEFT JOIN (
     SELECT product_code, event_key, hour, rows, hash, events, toUInt8(1) AS settled
     FROM usage_key_counts WHERE ${condition}
   ) USING (product_code, event_key, hour, rows, hash)`;

export interface HourCount {
  key: string;
  hour: number;
  count: number;
}

/**
 * Distinct events per (key, hour) over the whole hours under `condition` (on the key rollup): settled
 * hours by their count, the others from their id sets. The fingerprints are read once; the hours not
 * settled (usually the last one or two) are named to the second read.
 */
export const hourCounts = async (client: ClickHouseClient, condition: string): Promise<HourCount[]> => {
  const hours = await rowsOf<{ event_key: string; hour: Num; settled: Num; events: Num }>(
    client,
    `SELECT event_key, hour, settled, events FROM (${keyHoursSql(condition)})`,
  );
  const counts: HourCount[] = [];
  const open: string[] = [];
  for (const row of hours) {
    if (Number(row.settled) === 1)
      counts.push({ key: row.event_key, hour: Number(row.hour), count: Number(row.events) });
    else open.push(`(${str(row.event_key)}, ${int(Number(row.hour))})`);
  }
  if (open.length === 0) return counts;
  const pick =
    open.length <= 1000
      ? `(event_key, hour) IN (${open.join(', ')})`
      : `(product_code, event_key, hour) IN (SELECT product_code, event_key, hour FROM (${keyHoursSql(condition)}) WHERE settled = 0)`;
  const sets = await rowsOf<{ event_key: string; hour: Num; n: Num }>(
    client,
    `SELECT event_key, hour, uniqExactMerge(ids) AS n FROM usage_key_hours PREWHERE ${pick}
     WHERE ${condition} GROUP BY event_key, hour`,
  );
  return [...counts, ...sets.map((row) => ({ key: row.event_key, hour: Number(row.hour), count: Number(row.n) }))];
};

/** Each day's fingerprint: its hours' summed over keys (`condition` on the key rollup). */
const dayPrintsSql = (condition: string) =>
  `SELECT product_code, intDiv(hour, ${DAY_MS}) AS day, countMerge(rows) AS rows, sumMerge(hash) AS hash
   FROM usage_key_hours WHERE ${condition} GROUP BY product_code, day`;

/** The days in [fromDay, toDay) whose visitor bits are settled and still match what was inserted. */
export const settledDays = async (
  client: ClickHouseClient,
  product: string,
  fromDay: number,
  toDay: number,
): Promise<number[]> => {
  const range = (column: string, unit: number) =>
    `product_code = ${str(product)} AND ${column} >= ${int(fromDay * unit)} AND ${column} < ${int(toDay * unit)}`;
  const rows = await rowsOf<{ day: Num }>(
    client,
    `SELECT day FROM (${dayPrintsSql(range('hour', DAY_MS))}) ANY INNER JOIN (
       SELECT product_code, day, rows, hash FROM usage_visitor_days WHERE ${range('day', 1)}
     ) USING (product_code, day, rows, hash) ORDER BY day`,
  );
  return rows.map((row) => Number(row.day));
};

/**
 * The bits of `days` per stored span (span → mask, as UInt64 literals), in the family that needs the
 * fewest spans for them.
 */
export const spanMasks = (days: readonly number[]): Map<number, bigint> => {
  const inFamily = (family: number) => {
    const masks = new Map<number, bigint>();
    for (const day of days) {
      const span = spanOf(day, family);
      masks.set(span, (masks.get(span) ?? 0n) | (1n << BigInt(day - spanStart(span))));
    }
    return masks;
  };
  const [first, second] = [inFamily(0), inFamily(1)];
  return second.size < first.size ? second : first;
};

/**
 * A visitor as the masks key it: its 128-bit SipHash, the hash `uniqExact` itself counts strings by
 * (fixed-size keys group several times faster than strings).
 */
export const visitorKey = (column: string): string => `sipHash128(assumeNotNull(${column}))`;

/**
 * (kind, visitor, bits) rows of the visitors seen on the settled `days` — kind 0 devices, 1 users —
 * with their bits of those days (a row whose bits are all outside them is left out).
 */
export const maskedVisitorsSql = (product: string, days: readonly number[]): string => {
  const masks = [...spanMasks(days)];
  const window = `multiIf(${masks.map(([span, mask]) => `span = ${int(span)}, toUInt64(${mask})`).join(', ')}, toUInt64(0))`;
  return `SELECT kind, visitor, bits FROM (
      SELECT kind, visitor, bitAnd(finalizeAggregation(days), ${window}) AS bits FROM usage_visitor_masks
      WHERE product_code = ${str(product)} AND span IN (${masks.map(([span]) => int(span)).join(', ')})
    ) WHERE bits != 0`;
};

/** The (kind, visitor, bits) rows of raw events under `condition`. */
export const rawVisitorsSql = (condition: string): string =>
  `SELECT toUInt8(0) AS kind, ${visitorKey('device_uid')} AS visitor, toUInt64(1) AS bits FROM usage_events
     WHERE ${condition} AND device_uid IS NOT NULL
   UNION ALL
   SELECT toUInt8(1) AS kind, ${visitorKey('user_id')} AS visitor, toUInt64(1) AS bits FROM usage_events
     WHERE ${condition} AND user_id IS NOT NULL`;

const settleKeyHours = async (client: ClickHouseClient, before: number) => {
  const closed = `hour < ${int(before)}`;
  const [dirty] = await rowsOf<{ n: Num }>(
    client,
    `SELECT count() AS n FROM (${keyHoursSql(closed)}) WHERE settled = 0`,
  );
  if (Number(dirty?.n ?? 0) === 0) return 0;
  // Count, rows and hash from one read of the rollup: the fingerprint is that of the sets counted.
  await client.command({
    query: `INSERT INTO usage_key_counts (product_code, event_key, hour, rows, hash, events)
      SELECT product_code, event_key, hour, countMerge(rows), sumMerge(hash), uniqExactMerge(ids) FROM usage_key_hours
      PREWHERE (product_code, event_key, hour) IN (
        SELECT product_code, event_key, hour FROM (${keyHoursSql(closed)}) WHERE settled = 0)
      WHERE ${closed} GROUP BY product_code, event_key, hour`,
  });
  return Number(dirty?.n);
};

const settleVisitorDays = async (client: ClickHouseClient, before: number) => {
  // Fingerprints first, then the events: the bits hold at least what the fingerprints name.
  const dirty = await rowsOf<{ product_code: string; day: Num; rows: Num; hash: Num }>(
    client,
    `SELECT product_code, day, rows, hash, settled FROM (${dayPrintsSql(`hour < ${int(before)}`)}) ANY LEFT JOIN (
       SELECT product_code, day, rows, hash, toUInt8(1) AS settled FROM usage_visitor_days
     ) USING (product_code, day, rows, hash) WHERE settled = 0 ORDER BY product_code, day`,
  );
  const products = new Map<string, number[]>();
  for (const row of dirty) products.set(row.product_code, [...(products.get(row.product_code) ?? []), Number(row.day)]);
  for (const [product, days] of products) {
    const within = days.map((day) => `(at >= ${int(day * DAY_MS)} AND at < ${int((day + 1) * DAY_MS)})`);
    await client.command({
      query: `INSERT INTO usage_visitor_masks (product_code, kind, span, visitor, days)
        SELECT ${str(product)}, kind, span, visitor, groupBitOrState(bitShiftLeft(toUInt64(1), toUInt64(day - start)))
        FROM (SELECT kind, visitor, intDiv(at, ${DAY_MS}) AS day, arrayJoin([0, 1]) AS family,
          intDiv(day + ${HALF} * family, ${SPAN_DAYS}) AS s, 2 * s + family AS span, s * ${SPAN_DAYS} - ${HALF} * family AS start FROM (
          SELECT toUInt8(0) AS kind, ${visitorKey('device_uid')} AS visitor, at FROM usage_events
            WHERE product_code = ${str(product)} AND (${within.join(' OR ')}) AND device_uid IS NOT NULL
          UNION ALL
          SELECT toUInt8(1) AS kind, ${visitorKey('user_id')} AS visitor, at FROM usage_events
            WHERE product_code = ${str(product)} AND (${within.join(' OR ')}) AND user_id IS NOT NULL))
        GROUP BY kind, span, visitor`,
    });
  }
  if (dirty.length > 0) {
    const values = dirty.map(
      (row) => `(${str(row.product_code)}, ${int(Number(row.day))}, ${BigInt(row.rows)}, ${BigInt(row.hash)})`,
    );
    await client.command({
      query: `INSERT INTO usage_visitor_days (product_code, day, rows, hash) VALUES ${values.join(', ')}`,
    });
  }
  return dirty.length;
};

/**
 * Settles what changed: the closed hours (before the current one) whose count is not settled for
 * what they hold now, and the closed days (before the current one) likewise for their visitors.
 */
export const settle = async (client: ClickHouseClient, now: number): Promise<{ hours: number; days: number }> => ({
  hours: await settleKeyHours(client, Math.floor(now / HOUR_MS) * HOUR_MS),
  days: await settleVisitorDays(client, Math.floor(now / DAY_MS) * DAY_MS),
});

/**
 * Before retention drops the received days before `before`: the visitor spans holding a day those
 * events were on lose their bits (bits cannot be taken back) and so do the settled days they cover,
 * to be settled anew.
 */
export const unsettleSpansBefore = async (client: ClickHouseClient, before: number): Promise<void> => {
  // (`day` is the received day there: the alias must not be named like it.)
  const touched = await rowsOf<{ at_day: Num }>(
    client,
    `SELECT DISTINCT intDiv(hour, ${DAY_MS}) AS at_day FROM usage_key_hours WHERE (day + 1) * ${DAY_MS} <= ${int(before)}`,
  );
  const spans = new Set(touched.flatMap((row) => [spanOf(Number(row.at_day), 0), spanOf(Number(row.at_day), 1)]));
  // The halves (32 days, the settled days' partitions) of those spans.
  const halves = new Set([...spans].flatMap((span) => [spanStart(span) / HALF, spanStart(span) / HALF + 1]));
  for (const span of spans) {
    await client.command({ query: `ALTER TABLE usage_visitor_masks DROP PARTITION ${int(span)}` });
  }
  for (const half of halves) {
    await client.command({ query: `ALTER TABLE usage_visitor_days DROP PARTITION ${int(half)}` });
  }
};
