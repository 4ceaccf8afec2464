/**
 * Settled breakdowns of the ClickHouse events and beacons, kept by the hourly sweep (`settleBreakdowns`)
 * so that the monitoring dashboards and duration percentiles read small per-hour tables instead of
 * deduplicating ids over the window:
 * - `usage_duration_counts`: per (product, key, hour of `at`) each duration and how many events had it;
 * - `monitor_beacon_counts`: per (product, kind, hour of `received_at`) the error and API beacons per
 *   group (message and page; path, code and business flag) with the last time one was received;
 * - `monitor_vital_counts`: per (product, hour of `received_at`) each vital's values and their counts.
 * Value counts merge into exact nearest-rank percentiles (the ⌈f·n⌉-th smallest value), group counts
 * add up: an id lives in one hour (its copies share `at` and `received_at`).
 *
 * Exactly once, without trusting merges, as the settled counts (clickhouse-settled.ts): each settled
 * hour is written under a fresh *settle id* and then marked (`usage_settled_marks`) with that id and
 * the fingerprint of its rows (rows inserted and the sum of their hashes: `usage_key_hours` for the
 * events, `monitor_beacon_hours` for the beacons) read before its rows were. A query takes an hour
 * from the settled table only while a mark matches the hour's fingerprint now, and then only the rows
 * of that mark's settle id — a half-written or concurrent settle of the same hour is never added in.
 * Every other hour (the open one, an hour a duplicate, a spool replay or a late batch changed) and
 * the partial hours at the window's edges are deduplicated from the raw rows, as before settling.
 * Every table is partitioned by the day of its hour, so retention drops it with the received days.
 * Only functions and DDL that ClickHouse 18.16 and current releases both accept.
 */
import { randomBytes } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { HOUR_MS } from './clickhouse-rollups.ts';
import { DAY_MS, fraction, int, LONG_QUERY, rowsOf, str } from './clickhouse-schema.ts';
import type { Window } from './events-store.ts';
import { splitWindow } from './window.ts';

/** A breakdown the sweep settles per hour, and how its rows are computed from the raw ones. */
export interface Breakdown {
  /** Its name in the marks. */
  name: string;
  table: string;
  /** The stored columns after (settle, product_code, part, hour), named like the raw table's. */
  columns: string;
  ddl: string;
  /** The rollup holding each hour's fingerprint, and its column naming the part (key or kind). */
  prints: { table: string; part: string };
  /** The raw table, its part column, its time column, and which parts are settled here. */
  raw: { table: string; part: string; time: string; parts?: readonly string[] };
  /** (product_code, part, hour, …columns) of the raw rows under `condition`, each id once. */
  rows: (condition: string) => string;
}

const hourOf = (column: string) => `intDiv(${column}, ${HOUR_MS}) * ${HOUR_MS}`;

/** A breakdown from its stored columns (name and type): the table's DDL and the column list. */
const breakdown = ({ stored, ...spec }: Omit<Breakdown, 'columns' | 'ddl'> & { stored: string }): Breakdown => ({
  ...spec,
  columns: stored
    .split(',')
    .map((column) => column.trim().split(' ')[0])
    .join(', '),
  ddl: `CREATE TABLE IF NOT EXISTS ${spec.table} (settle UInt64, product_code String, part String, hour Int64, ${stored})
  ENGINE = MergeTree() PARTITION BY intDiv(hour, ${DAY_MS}) ORDER BY (product_code, part, hour, settle)`,
});

export const DURATIONS = breakdown({
  name: 'durations',
  table: 'usage_duration_counts',
  stored: 'value Int64, events UInt64',
  prints: { table: 'usage_key_hours', part: 'event_key' },
  raw: { table: 'usage_durations', part: 'event_key', time: 'at' },
  rows: (condition) =>
    `SELECT product_code, event_key AS part, ${hourOf('at')} AS hour, duration AS value, count() AS events FROM (
       SELECT product_code, event_key, at, duration FROM usage_durations WHERE ${condition} LIMIT 1 BY product_code, event_id
     ) GROUP BY product_code, part, hour, value`,
});

/** The beacons of one id once: copies of a beacon (a retried insert, a spool replay) are the same row. */
const distinctBeacons = (columns: string, condition: string) =>
  `SELECT product_code, kind, received_at, ${columns} FROM monitor_beacons WHERE ${condition}
   LIMIT 1 BY product_code, beacon_id`;

export const BEACON_GROUPS = breakdown({
  name: 'beacons',
  table: 'monitor_beacon_counts',
  stored: `name Nullable(String), page String, url Nullable(String), code Nullable(Int64), business Nullable(Int64),
    beacons UInt64, last_seen Int64`,
  prints: { table: 'monitor_beacon_hours', part: 'kind' },
  raw: { table: 'monitor_beacons', part: 'kind', time: 'received_at', parts: ['error', 'api'] },
  // Errors are grouped by page (the error groups count pages), API calls are not.
  rows: (condition) =>
    `SELECT product_code, kind AS part, ${hourOf('received_at')} AS hour, name, if(kind = 'error', page, '') AS page_of,
       url, code, business, count() AS beacons, max(received_at) AS last_seen
     FROM (${distinctBeacons('name, page, url, code, business', condition)})
     GROUP BY product_code, part, hour, name, page_of, url, code, business`,
});

export const VITALS = breakdown({
  name: 'vitals',
  table: 'monitor_vital_counts',
  stored: 'name String, value Float64, beacons UInt64',
  prints: { table: 'monitor_beacon_hours', part: 'kind' },
  raw: { table: 'monitor_beacons', part: 'kind', time: 'received_at', parts: ['perf'] },
  rows: (condition) =>
    `SELECT product_code, kind AS part, ${hourOf('received_at')} AS hour, assumeNotNull(name) AS vital,
       assumeNotNull(value) AS measured, count() AS beacons
     FROM (${distinctBeacons('name, value', `${condition} AND name IS NOT NULL AND value IS NOT NULL`)})
     GROUP BY product_code, part, hour, vital, measured`,
});

export const BREAKDOWNS = [DURATIONS, BEACON_GROUPS, VITALS] as const;

const MARKS = `CREATE TABLE IF NOT EXISTS usage_settled_marks (
  breakdown String, product_code String, part String, hour Int64, rows UInt64, hash UInt64, settle UInt64
) ENGINE = ReplacingMergeTree() PARTITION BY intDiv(hour, ${DAY_MS})
ORDER BY (breakdown, product_code, part, hour, rows, hash, settle)`;

/** The tables partitioned by the day of their hour, which retention drops with the received days. */
export const BREAKDOWN_TABLES = ['usage_settled_marks', ...BREAKDOWNS.map((breakdown) => breakdown.table)];

export const ensureBreakdowns = async (client: ClickHouseClient): Promise<void> => {
  for (const ddl of [MARKS, ...BREAKDOWNS.map((breakdown) => breakdown.ddl)]) await client.command({ query: ddl });
};

type Num = string | number;

/**
 * Every hour under `condition` (on the fingerprint rollup) with its fingerprint, and `settle` = the
 * settle id of a mark with the same fingerprint (0 when there is none).
 */
const markedHoursSql = (b: Breakdown, condition: string, marks: string) =>
  `SELECT product_code, part, hour, rows, hash, settle FROM (
     SELECT product_code, ${b.prints.part} AS part, hour, countMerge(rows) AS rows, sumMerge(hash) AS hash
     FROM ${b.prints.table} WHERE ${condition} GROUP BY product_code, part, hour
   ) ANY LEFT JOIN (
     SELECT product_code, part, hour, rows, hash, settle FROM usage_settled_marks
     WHERE breakdown = ${str(b.name)} AND ${marks}
   ) USING (product_code, part, hour, rows, hash)`;

/** Consecutive hours as [from, to) ranges. */
const hourRanges = (hours: readonly number[]): [number, number][] => {
  const ranges: [number, number][] = [];
  for (const hour of [...hours].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && last[1] === hour) last[1] = hour + HOUR_MS;
    else ranges.push([hour, hour + HOUR_MS]);
  }
  return ranges;
};

const within = (column: string, ranges: readonly (readonly [number, number])[]) =>
  `(${ranges.map(([from, to]) => `(${column} >= ${int(from)} AND ${column} < ${int(to)})`).join(' OR ')})`;

/**
 * The query of a breakdown's rows (hour, …columns) for one product and part over the window: the
 * settled hours from the breakdown's table, the rest from the raw rows, each id once. `where` narrows
 * both on columns they share (a vital's name, a failed call's code).
 */
export const breakdownSql = async (
  client: ClickHouseClient,
  b: Breakdown,
  w: Window,
  part: string,
  where = '1',
): Promise<string> => {
  const { whole, edges } = splitWindow(w.from, w.to, HOUR_MS);
  const ofPart = (column: string) => `product_code = ${str(w.product)} AND ${column} = ${str(part)}`;
  const hours = whole
    ? await rowsOf<{ hour: Num; settle: Num }>(
        client,
        `SELECT hour, settle FROM (${markedHoursSql(
          b,
          `${ofPart(b.prints.part)} AND hour >= ${int(whole[0])} AND hour < ${int(whole[1])}`,
          `${ofPart('part')} AND hour >= ${int(whole[0])} AND hour < ${int(whole[1])}`,
        )})`,
      )
    : [];
  const settled = hours.filter((row) => String(row.settle) !== '0');
  const open = hourRanges(hours.filter((row) => String(row.settle) === '0').map((row) => Number(row.hour)));
  const pairs = settled.map((row) => `(${int(Number(row.hour))}, ${BigInt(row.settle)})`);
  // (Columns by position: the raw rows' aliases differ from the stored names.)
  const parts = [
    `SELECT product_code, part, hour, ${b.columns} FROM ${b.table} WHERE ${ofPart('part')} AND ${where} AND ${
      pairs.length > 0 ? `(hour, settle) IN (${pairs.join(', ')})` : '0'
    }`,
  ];
  const raw = [...open, ...edges];
  if (raw.length > 0) parts.push(b.rows(`${ofPart(b.raw.part)} AND ${within(b.raw.time, raw)} AND ${where}`));
  return parts.join(' UNION ALL ');
};

/** A fresh settle id (never 0, which the marks' join answers for "none"). */
const settleId = () => (randomBytes(8).readBigUInt64BE() >> 1n) | 1n;

/** Hours settled per insert: the insert names each (product, part, hour). */
const CHUNK = 1000;

const settleBreakdown = async (client: ClickHouseClient, b: Breakdown, before: number) => {
  const closed = `hour < ${int(before)}`;
  const parts = b.raw.parts ? ` AND ${b.prints.part} IN (${b.raw.parts.map(str).join(', ')})` : '';
  // Fingerprints first, then the raw rows: the rows settled hold at least what the fingerprints name,
  // and a row beyond them changes the fingerprint, so the mark stops matching.
  const dirty = await rowsOf<{ product_code: string; part: string; hour: Num; rows: Num; hash: Num }>(
    client,
    `SELECT product_code, part, hour, rows, hash FROM (${markedHoursSql(b, `${closed}${parts}`, closed)})
     WHERE settle = 0 ORDER BY product_code, part, hour`,
  );
  for (let first = 0; first < dirty.length; first += CHUNK) {
    const chunk = dirty.slice(first, first + CHUNK);
    const settle = settleId();
    const hours = chunk.map((row) => Number(row.hour));
    const named = chunk.map((row) => `(${str(row.product_code)}, ${str(row.part)}, ${int(Number(row.hour))})`);
    const span = within(b.raw.time, [[Math.min(...hours), Math.max(...hours) + HOUR_MS]]);
    await client.command({
      query: `INSERT INTO ${b.table} SELECT ${settle}, * FROM (${b.rows(
        `${span} AND (product_code, ${b.raw.part}, ${hourOf(b.raw.time)}) IN (${named.join(', ')})`,
      )})`,
      clickhouse_settings: LONG_QUERY,
    });
    const marks = chunk.map(
      (row) =>
        `(${str(b.name)}, ${str(row.product_code)}, ${str(row.part)}, ${int(Number(row.hour))}, ${BigInt(row.rows)}, ${BigInt(row.hash)}, ${settle})`,
    );
    await client.command({
      query: `INSERT INTO usage_settled_marks (breakdown, product_code, part, hour, rows, hash, settle) VALUES ${marks.join(', ')}`,
      clickhouse_settings: LONG_QUERY,
    });
  }
  return dirty.length;
};

/** Settles the closed hours (before the one of `now`) of every breakdown; answers how many. */
export const settleBreakdowns = async (client: ClickHouseClient, now: number): Promise<number> => {
  const before = Math.floor(now / HOUR_MS) * HOUR_MS;
  let hours = 0;
  for (const b of BREAKDOWNS) hours += await settleBreakdown(client, b, before);
  return hours;
};

/**
 * Nearest-rank values (the ⌈f·n⌉-th smallest) of counted values, per group: `rows` has the columns
 * `v` (a value) and `c` (how many have it), plus the `groupBy` columns. Answers n and p0, p1, ….
 */
export const rankedSql = (rows: string, fractions: readonly number[], groupBy: readonly string[] = []): string => {
  const keys = groupBy.map((key) => `${key}, `).join('');
  const picks = fractions.map(
    (f, i) =>
      `arrayElement(vs, arrayFirstIndex(s -> s >= toUInt64(greatest(1, ceil(${fraction(f)} * n))), arrayCumSum(cs))) AS p${i}`,
  );
  return `SELECT ${keys}n, ${fractions.map((_, i) => `p${i}`).join(', ')} FROM (
    SELECT ${keys}sum(c) AS n, arraySort(groupArray(v)) AS vs, arraySort((x, y) -> y, groupArray(c), groupArray(v)) AS cs,
      ${picks.join(', ')}
    FROM (SELECT ${keys}v, sum(c) AS c FROM (${rows}) GROUP BY ${keys}v)
    ${groupBy.length > 0 ? `GROUP BY ${groupBy.join(', ')}` : ''})`;
};
