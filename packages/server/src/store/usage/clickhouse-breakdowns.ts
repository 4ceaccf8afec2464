/**
 * Settled breakdowns of the ClickHouse events and beacons, kept by the hourly sweep (`settleBreakdowns`)
 * so that duration percentiles and the monitoring dashboards read small tables instead of
 * deduplicating the window's ids:
 * - `usage_duration_counts`: per (product, key, day of `at`) each duration and how many events had it
 *   (per day: durations repeat across hours, so a day holds far fewer rows than its 24 hours);
 * - `monitor_beacon_counts`: per (product, kind, hour of `received_at`) the error and API beacons per
 *   group (message and page; path, code and business flag) with the last time one was received;
 * - `monitor_vital_counts`: per (product, hour of `received_at`) each vital's values and their counts
 *   (per hour: the vitals series has hourly buckets).
 * Value counts merge into exact nearest-rank percentiles (the ⌈f·n⌉-th smallest value), group counts
 * add up: an id lives in one period (its copies share `at` and `received_at`).
 *
 * Exactly once, without trusting merges, as the settled counts (clickhouse-settled.ts): each settled
 * period is written under a fresh *settle id* and then marked (`usage_settled_marks`) with that id and
 * the fingerprint of its rows — rows inserted and the sum of their hashes, summed over its hours of
 * `usage_key_hours` (events) or `monitor_beacon_hours` (beacons) — read before its rows were. A query
 * takes a period from the settled table only while a mark matches the period's fingerprint now, and
 * then only the rows of that mark's settle id: a half-written or concurrent settle is never added in.
 * Every other period (the open one, one a duplicate, a spool replay or a late batch changed) and the
 * partial periods at the window's edges are deduplicated from the raw rows, as before settling.
 * Every table is partitioned by the day of its period, so retention drops it with the received days.
 * Only functions and DDL that ClickHouse 18.16 and current releases both accept.
 */
import { randomBytes } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { HOUR_MS } from './clickhouse-rollups.ts';
import { DAY_MS, fraction, int, LONG_QUERY, rowsOf, str } from './clickhouse-schema.ts';
import type { Window } from './events-store.ts';
import { splitWindow } from './window.ts';

/** A breakdown the sweep settles per period (hour or day), and how its rows come from the raw ones. */
export interface Breakdown {
  /** Its name in the marks. */
  name: string;
  table: string;
  /** The period settled, in ms: an hour, or a day (fewer rows where values repeat across hours). */
  period: number;
  /** The stored columns after (settle, product_code, part, period), named like the raw table's. */
  columns: string;
  ddl: string;
  /** The hourly rollup holding the fingerprints, and its column naming the part (key or kind). */
  prints: { table: string; part: string };
  /** The raw table, its part column, its time column, and which parts are settled here. */
  raw: { table: string; part: string; time: string; parts?: readonly string[] };
  /** (product_code, part, period, …columns) of the raw rows under `condition`, each id once. */
  rows: (condition: string) => string;
}

interface Spec extends Omit<Breakdown, 'columns' | 'ddl' | 'rows'> {
  /** The stored columns, with their types. */
  stored: string;
  /** The stored table's sort key after (product_code, part), before (period, settle). */
  sortedBy?: string;
  /** The raw rows, given the SQL of the period of the time column. */
  rows: (condition: string, period: string) => string;
}

/** The start of the period of `column`, in SQL. */
const periodOf = (period: number, column: string) => `intDiv(${column}, ${int(period)}) * ${int(period)}`;

/** A breakdown from its stored columns (name and type): the table's DDL and the column list. */
const breakdown = ({ stored, sortedBy, rows, ...spec }: Spec): Breakdown => ({
  ...spec,
  columns: stored
    .split(',')
    .map((column) => column.trim().split(' ')[0])
    .join(', '),
  ddl: `CREATE TABLE IF NOT EXISTS ${spec.table} (settle UInt64, product_code String, part String, period Int64, ${stored})
  ENGINE = MergeTree() PARTITION BY intDiv(period, ${DAY_MS})
  ORDER BY (product_code, part, ${sortedBy ? `${sortedBy}, ` : ''}period, settle)`,
  rows: (condition) => rows(condition, periodOf(spec.period, spec.raw.time)),
});

export const DURATIONS = breakdown({
  name: 'durations',
  table: 'usage_duration_counts',
  period: DAY_MS,
  stored: 'value Int64, events UInt64',
  prints: { table: 'usage_key_hours', part: 'event_key' },
  raw: { table: 'usage_durations', part: 'event_key', time: 'at' },
  rows: (condition, period) =>
    `SELECT product_code, event_key AS part, ${period} AS period, duration AS value, count() AS events FROM (
       SELECT product_code, event_key, at, duration FROM usage_durations WHERE ${condition} LIMIT 1 BY product_code, event_id
     ) GROUP BY product_code, part, period, value`,
});

/** The beacons of one id once: copies of a beacon (a retried insert, a spool replay) are the same row. */
const distinctBeacons = (columns: string, condition: string) =>
  `SELECT product_code, kind, received_at, ${columns} FROM monitor_beacons WHERE ${condition}
   LIMIT 1 BY product_code, beacon_id`;

export const BEACON_GROUPS = breakdown({
  name: 'beacons',
  table: 'monitor_beacon_counts',
  period: HOUR_MS,
  stored: `name Nullable(String), page String, url Nullable(String), code Nullable(Int64), business Nullable(Int64),
    beacons UInt64, last_seen Int64`,
  prints: { table: 'monitor_beacon_hours', part: 'kind' },
  raw: { table: 'monitor_beacons', part: 'kind', time: 'received_at', parts: ['error', 'api'] },
  // Errors are grouped by page (the error groups count pages), API calls are not.
  rows: (condition, period) =>
    `SELECT product_code, kind AS part, ${period} AS period, name, if(kind = 'error', page, '') AS page_of,
       url, code, business, count() AS beacons, max(received_at) AS last_seen
     FROM (${distinctBeacons('name, page, url, code, business', condition)})
     GROUP BY product_code, part, period, name, page_of, url, code, business`,
});

export const VITALS = breakdown({
  name: 'vitals',
  table: 'monitor_vital_counts',
  period: HOUR_MS,
  stored: 'name String, value Float64, beacons UInt64',
  sortedBy: 'name',
  prints: { table: 'monitor_beacon_hours', part: 'kind' },
  raw: { table: 'monitor_beacons', part: 'kind', time: 'received_at', parts: ['perf'] },
  rows: (condition, period) =>
    `SELECT product_code, kind AS part, ${period} AS period, assumeNotNull(name) AS vital,
       assumeNotNull(value) AS measured, count() AS beacons
     FROM (${distinctBeacons('name, value', `${condition} AND name IS NOT NULL AND value IS NOT NULL`)})
     GROUP BY product_code, part, period, vital, measured`,
});

export const BREAKDOWNS = [DURATIONS, BEACON_GROUPS, VITALS] as const;

const MARKS = `CREATE TABLE IF NOT EXISTS usage_settled_marks (
  breakdown String, product_code String, part String, period Int64, rows UInt64, hash UInt64, settle UInt64
) ENGINE = ReplacingMergeTree() PARTITION BY intDiv(period, ${DAY_MS})
ORDER BY (breakdown, product_code, part, period, rows, hash, settle)`;

/** The tables partitioned by the day of their period, which retention drops with the received days. */
export const BREAKDOWN_TABLES = ['usage_settled_marks', ...BREAKDOWNS.map((breakdown) => breakdown.table)];

export const ensureBreakdowns = async (client: ClickHouseClient): Promise<void> => {
  for (const ddl of [MARKS, ...BREAKDOWNS.map((breakdown) => breakdown.ddl)]) await client.command({ query: ddl });
};

type Num = string | number;

/**
 * Every period under `condition` (on the hourly fingerprint rollup) with its fingerprint (its hours'
 * summed), and `settle` = the settle id of a mark with the same fingerprint (0 when there is none).
 */
const markedPeriodsSql = (b: Breakdown, condition: string, marks: string) =>
  `SELECT product_code, part, period, rows, hash, settle FROM (
     SELECT product_code, ${b.prints.part} AS part, ${periodOf(b.period, 'hour')} AS period,
       countMerge(rows) AS rows, sumMerge(hash) AS hash
     FROM ${b.prints.table} WHERE ${condition} GROUP BY product_code, part, period
   ) ANY LEFT JOIN (
     SELECT product_code, part, period, rows, hash, settle FROM usage_settled_marks
     WHERE breakdown = ${str(b.name)} AND ${marks}
   ) USING (product_code, part, period, rows, hash)`;

/** Consecutive periods as [from, to) ranges. */
const periodRanges = (starts: readonly number[], period: number): [number, number][] => {
  const ranges: [number, number][] = [];
  for (const start of [...starts].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && last[1] === start) last[1] = start + period;
    else ranges.push([start, start + period]);
  }
  return ranges;
};

const within = (column: string, ranges: readonly (readonly [number, number])[]) =>
  `(${ranges.map(([from, to]) => `(${column} >= ${int(from)} AND ${column} < ${int(to)})`).join(' OR ')})`;

/**
 * The query of a breakdown's rows (product_code, part, period, …columns) for one product and part
 * over the window: the settled periods from the breakdown's table, the rest from the raw rows, each id
 * once. `where` narrows both on columns they share (a vital's name, a failed call's code).
 */
export const breakdownSql = async (
  client: ClickHouseClient,
  b: Breakdown,
  w: Window,
  part: string,
  where = '1',
): Promise<string> => {
  const { whole, edges } = splitWindow(w.from, w.to, b.period);
  const ofPart = (column: string) => `product_code = ${str(w.product)} AND ${column} = ${str(part)}`;
  const inWhole = (column: string) => (whole ? within(column, [whole]) : '0');
  const periods = whole
    ? await rowsOf<{ period: Num; settle: Num }>(
        client,
        `SELECT period, settle FROM (${markedPeriodsSql(
          b,
          `${ofPart(b.prints.part)} AND ${inWhole('hour')}`,
          `${ofPart('part')} AND ${inWhole('period')}`,
        )})`,
      )
    : [];
  const settled = periods.filter((row) => String(row.settle) !== '0');
  const open = periods.filter((row) => String(row.settle) === '0').map((row) => Number(row.period));
  const pairs = settled.map((row) => `(${int(Number(row.period))}, ${BigInt(row.settle)})`);
  // (Columns by position: the raw rows' aliases differ from the stored names.)
  const parts = [
    `SELECT product_code, part, period, ${b.columns} FROM ${b.table} WHERE ${ofPart('part')} AND ${where} AND ${
      pairs.length > 0 ? `${inWhole('period')} AND (period, settle) IN (${pairs.join(', ')})` : '0'
    }`,
  ];
  const raw = [...periodRanges(open, b.period), ...edges];
  if (raw.length > 0) parts.push(b.rows(`${ofPart(b.raw.part)} AND ${within(b.raw.time, raw)} AND ${where}`));
  return parts.join(' UNION ALL ');
};

/** A fresh settle id (never 0, which the marks' join answers for "none"). */
const settleId = () => (randomBytes(8).readBigUInt64BE() >> 1n) | 1n;

/** Periods settled per insert: the insert names each (product, part, period). */
const CHUNK = 1000;

const settleBreakdown = async (client: ClickHouseClient, b: Breakdown, now: number) => {
  const before = Math.floor(now / b.period) * b.period;
  const parts = b.raw.parts ? ` AND ${b.prints.part} IN (${b.raw.parts.map(str).join(', ')})` : '';
  // Fingerprints first, then the raw rows: the rows settled hold at least what the fingerprints name,
  // and a row beyond them changes the fingerprint, so the mark stops matching.
  const dirty = await rowsOf<{ product_code: string; part: string; period: Num; rows: Num; hash: Num }>(
    client,
    `SELECT product_code, part, period, rows, hash FROM (
       ${markedPeriodsSql(b, `hour < ${int(before)}${parts}`, `period < ${int(before)}`)}
     ) WHERE settle = 0 ORDER BY product_code, part, period`,
  );
  for (let first = 0; first < dirty.length; first += CHUNK) {
    const chunk = dirty.slice(first, first + CHUNK);
    const settle = settleId();
    const starts = chunk.map((row) => Number(row.period));
    const named = chunk.map((row) => `(${str(row.product_code)}, ${str(row.part)}, ${int(Number(row.period))})`);
    const span = within(b.raw.time, [[Math.min(...starts), Math.max(...starts) + b.period]]);
    const period = periodOf(b.period, b.raw.time);
    await client.command({
      query: `INSERT INTO ${b.table} SELECT ${settle}, * FROM (${b.rows(
        `${span} AND (product_code, ${b.raw.part}, ${period}) IN (${named.join(', ')})`,
      )})`,
      clickhouse_settings: LONG_QUERY,
    });
    const marks = chunk.map(
      (row) =>
        `(${str(b.name)}, ${str(row.product_code)}, ${str(row.part)}, ${int(Number(row.period))}, ${BigInt(row.rows)}, ${BigInt(row.hash)}, ${settle})`,
    );
    await client.command({
      query: `INSERT INTO usage_settled_marks (breakdown, product_code, part, period, rows, hash, settle) VALUES ${marks.join(', ')}`,
      clickhouse_settings: LONG_QUERY,
    });
  }
  return dirty.length;
};

/** Settles the closed periods (before the one of `now`) of every breakdown; answers how many. */
export const settleBreakdowns = async (client: ClickHouseClient, now: number): Promise<number> => {
  let periods = 0;
  for (const b of BREAKDOWNS) periods += await settleBreakdown(client, b, now);
  return periods;
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
