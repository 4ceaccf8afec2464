/**
 * Settled breakdowns of the ClickHouse events and beacons, kept by the hourly sweep (`settleBreakdowns`)
 * so that duration percentiles and the monitoring dashboards read small tables instead of
 * deduplicating the window's ids. Each is settled per closed day and per closed hour:
 * - `usage_duration_counts`: per (product, key, day or hour of `at`) each duration and how many
 *   events had it;
 * - `monitor_beacon_counts`: per (product, kind, day or hour of `received_at`) the error and API
 *   beacons per group (message and page; path, code and business flag), with the last one received;
 * - `monitor_vital_counts`: per (product, day or hour of `received_at`) each vital's values and counts.
 * A window reads its whole days from the days (values and groups repeat across hours, so a day holds
 * far fewer rows than its hours), the other whole hours from the hours, and the rest raw. Value
 * counts merge into exact nearest-rank percentiles (the ⌈f·n⌉-th smallest value), group counts add
 * up: an id lives in one hour (its copies share `at` and `received_at`).
 *
 * Exactly once, without trusting merges, as the settled counts (clickhouse-settled.ts): each settled
 * period is written under a fresh *settle id* and then marked (`usage_settled_marks`) with that id and
 * the fingerprint of its rows — rows inserted and the sum of their hashes, summed over its hours of
 * `usage_key_hours` (events) or `monitor_beacon_hours` (beacons) — read before its rows were. A query
 * takes a period from the settled table only while a mark matches the period's fingerprint now, and
 * then only the rows of that mark's settle id: a half-written or concurrent settle is never added in.
 * Every other period (the open one, one a duplicate, a spool replay or a late batch changed) and the
 * partial hours at the window's edges are deduplicated from the raw rows, as before settling.
 * Every table is partitioned by the day of its period, so retention drops it with the received days.
 * Only functions and DDL that ClickHouse 18.16 and current releases both accept.
 */

import { randomBytes } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { DAY_MS, HOUR_MS } from '@edupass/protocol';

import { fraction, int, LONG_QUERY, rowsOf, str } from './clickhouse-schema.ts';
import type { Window } from './events-store.ts';
import { splitWindow } from './window.ts';

/**
 * A breakdown the sweep settles per day and per hour, and how its rows come from the raw ones. A
 * window reads whole days settled per day (values and groups repeat across hours, so a day holds far
 * fewer rows than its 24 hours), the other whole hours settled per hour, and the rest raw.
 */
export interface Breakdown {
  /** Its name in the marks. */
  name: string;
  table: string;
  /** The stored columns after (settle, product_code, part, span, period), named like the raw table's. */
  columns: string;
  ddl: string;
  /** The hourly rollup holding the fingerprints, and its column naming the part (key or kind). */
  prints: { table: string; part: string };
  /** The raw rows' part column and time column, and which parts are settled here. */
  raw: { part: string; time: string; parts?: readonly string[] };
  /**
   * (product_code, part, span, period, …columns) of the raw rows under `condition`, each id once;
   * `settling`: read from the table the fingerprints' view follows, never from another view's table,
   * which may get an insert after the fingerprints do.
   */
  rows: (condition: string, span: number, settling?: boolean) => string;
}

/** The periods settled, coarsest first, in ms: every one a multiple of the next. */
export const SPANS = [DAY_MS, HOUR_MS] as const;

interface Spec extends Omit<Breakdown, 'columns' | 'ddl' | 'rows'> {
  /** The stored columns, with their types. */
  stored: string;
  /** The stored table's sort key after (product_code, part), before (span, period, settle). */
  sortedBy?: string;
  /** The raw rows, given the SQL of their span and period columns (`span`, `period`). */
  rows: (condition: string, periods: string, settling: boolean) => string;
}

/** The start of the period of `column`, in SQL. */
const periodOf = (span: number, column: string) => `intDiv(${column}, ${int(span)}) * ${int(span)}`;

/** A breakdown from its stored columns (name and type): the table's DDL and the column list. */
const breakdown = ({ stored, sortedBy, rows, ...spec }: Spec): Breakdown => ({
  ...spec,
  columns: stored
    .split(',')
    .map((column) => column.trim().split(' ')[0])
    .join(', '),
  ddl: `CREATE TABLE IF NOT EXISTS ${spec.table} (
    settle UInt64, product_code String, part String, span Int64, period Int64, ${stored}
  ) ENGINE = MergeTree() PARTITION BY intDiv(period, ${DAY_MS})
  ORDER BY (product_code, part, ${sortedBy ? `${sortedBy}, ` : ''}span, period, settle)`,
  rows: (condition, span, settling = false) =>
    rows(condition, `toInt64(${int(span)}) AS span, ${periodOf(span, spec.raw.time)} AS period`, settling),
});

export const DURATIONS = breakdown({
  name: 'durations',
  table: 'usage_duration_counts',
  stored: 'value Int64, events UInt64',
  prints: { table: 'usage_key_hours', part: 'event_key' },
  raw: { part: 'event_key', time: 'at' },
  // Queries read the timed events' rollup; the sweep reads the events, which `usage_key_hours` follows.
  rows: (condition, periods, settling) =>
    `SELECT product_code, event_key AS part, ${periods}, duration AS value, count() AS events FROM (
       ${
         settling
           ? `SELECT product_code, event_key, at, assumeNotNull(dur) AS duration FROM usage_events
              WHERE ${condition} AND dur IS NOT NULL`
           : `SELECT product_code, event_key, at, duration FROM usage_durations WHERE ${condition}`
       }
       LIMIT 1 BY product_code, event_id
     ) GROUP BY product_code, part, span, period, value`,
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
  raw: { part: 'kind', time: 'received_at', parts: ['error', 'api'] },
  // Errors are grouped by page (the error groups count pages), API calls are not.
  rows: (condition, periods) =>
    `SELECT product_code, kind AS part, ${periods}, name, if(kind = 'error', page, '') AS page_of,
       url, code, business, count() AS beacons, max(received_at) AS last_seen
     FROM (${distinctBeacons('name, page, url, code, business', condition)})
     GROUP BY product_code, part, span, period, name, page_of, url, code, business`,
});

export const VITALS = breakdown({
  name: 'vitals',
  table: 'monitor_vital_counts',
  stored: 'name String, value Float64, beacons UInt64',
  sortedBy: 'name',
  prints: { table: 'monitor_beacon_hours', part: 'kind' },
  raw: { part: 'kind', time: 'received_at', parts: ['perf'] },
  rows: (condition, periods) =>
    `SELECT product_code, kind AS part, ${periods}, assumeNotNull(name) AS vital,
       assumeNotNull(value) AS measured, count() AS beacons
     FROM (${distinctBeacons('name, value', `${condition} AND name IS NOT NULL AND value IS NOT NULL`)})
     GROUP BY product_code, part, span, period, vital, measured`,
});

export const BREAKDOWNS = [DURATIONS, BEACON_GROUPS, VITALS] as const;

const MARKS = `CREATE TABLE IF NOT EXISTS usage_settled_marks (
  breakdown String, product_code String, part String, span Int64, period Int64, rows UInt64, hash UInt64, settle UInt64
) ENGINE = ReplacingMergeTree() PARTITION BY intDiv(period, ${DAY_MS})
ORDER BY (breakdown, product_code, part, span, period, rows, hash, settle)`;

/** The tables partitioned by the day of their period, which retention drops with the received days. */
export const BREAKDOWN_TABLES = ['usage_settled_marks', ...BREAKDOWNS.map((breakdown) => breakdown.table)];

export const ensureBreakdowns = async (client: ClickHouseClient): Promise<void> => {
  for (const ddl of [MARKS, ...BREAKDOWNS.map((breakdown) => breakdown.ddl)]) await client.command({ query: ddl });
};

type Num = string | number;
type Range = readonly [from: number, to: number];

/**
 * Every period of `span` under `condition` (on the hourly fingerprint rollup) with its fingerprint
 * (its hours' summed), and `settle` = the settle id of a mark with the same fingerprint (0: none).
 */
const markedPeriodsSql = (b: Breakdown, span: number, condition: string, marks: string) =>
  `SELECT product_code, part, period, rows, hash, settle FROM (
     SELECT product_code, ${b.prints.part} AS part, ${periodOf(span, 'hour')} AS period,
       countMerge(rows) AS rows, sumMerge(hash) AS hash
     FROM ${b.prints.table} WHERE ${condition} GROUP BY product_code, part, period
   ) ANY LEFT JOIN (
     SELECT product_code, part, period, rows, hash, settle FROM usage_settled_marks
     WHERE breakdown = ${str(b.name)} AND span = ${int(span)} AND ${marks}
   ) USING (product_code, part, period, rows, hash)`;

const within = (column: string, ranges: readonly Range[]) =>
  ranges.length === 0
    ? '0'
    : `(${ranges.map(([from, to]) => `(${column} >= ${int(from)} AND ${column} < ${int(to)})`).join(' OR ')})`;

/** Ranges in order, touching ones joined. */
const joined = (ranges: readonly Range[]): Range[] => {
  const out: [number, number][] = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && last[1] === from) last[1] = to;
    else out.push([from, to]);
  }
  return out;
};

/**
 * The query of a breakdown's rows (product_code, part, span, period, …columns) for one product and
 * part over the window, each id once: whole periods settled at the coarsest of `spans` that has them,
 * the rest from the raw rows (whose period is an hour). `where` narrows both on columns they share (a
 * vital's name, a failed call's code). The marks are read once per span, for what the coarser spans
 * left; a period counts as settled only under the settle id read, so an answer never mixes two
 * settles of one period.
 */
export const breakdownSql = async (
  client: ClickHouseClient,
  b: Breakdown,
  w: Window,
  part: string,
  where = '1',
  spans: readonly number[] = SPANS,
): Promise<string> => {
  const ofPart = (column: string) => `product_code = ${str(w.product)} AND ${column} = ${str(part)}`;
  let open: Range[] = [[w.from, w.to]];
  const settled: string[] = [];
  for (const span of spans) {
    const splits = open.map(([from, to]) => splitWindow(from, to, span));
    const wholes = joined(splits.flatMap((split) => (split.whole ? [split.whole] : [])));
    if (wholes.length === 0) continue;
    const marked = new Map(
      (
        await rowsOf<{ period: Num; settle: Num }>(
          client,
          `SELECT period, settle FROM (${markedPeriodsSql(
            b,
            span,
            `${ofPart(b.prints.part)} AND ${within('hour', wholes)}`,
            `${ofPart('part')} AND ${within('period', wholes)}`,
          )}) WHERE settle != 0`,
        )
      ).map((row) => [Number(row.period), String(row.settle)]),
    );
    const next: Range[] = splits.flatMap((split) => split.edges);
    for (const [from, to] of wholes) {
      for (let period = from; period < to; period += span) {
        const settle = marked.get(period);
        if (settle === undefined) next.push([period, period + span]);
        else settled.push(`(${int(span)}, ${int(period)}, ${BigInt(settle)})`);
      }
    }
    open = joined(next);
  }
  // (Columns by position: the raw rows' aliases differ from the stored names.)
  const parts = [
    `SELECT product_code, part, span, period, ${b.columns} FROM ${b.table} WHERE ${ofPart('part')} AND ${where} AND ${
      settled.length > 0 ? `(span, period, settle) IN (${settled.join(', ')})` : '0'
    }`,
  ];
  if (open.length > 0) {
    parts.push(b.rows(`${ofPart(b.raw.part)} AND ${within(b.raw.time, open)} AND ${where}`, HOUR_MS));
  }
  return parts.join(' UNION ALL ');
};

/** A fresh settle id (never 0, which the marks' join answers for "none"). */
const settleId = () => (randomBytes(8).readBigUInt64BE() >> 1n) | 1n;

/** Periods settled per insert: the insert names each (product, part, period), in time order. */
const CHUNK = 1000;

const settleSpan = async (client: ClickHouseClient, b: Breakdown, span: number, now: number) => {
  const before = Math.floor(now / span) * span;
  const parts = b.raw.parts ? ` AND ${b.prints.part} IN (${b.raw.parts.map(str).join(', ')})` : '';
  // Fingerprints first, then the raw rows: the rows settled hold at least what the fingerprints name,
  // and a row beyond them changes the fingerprint, so the mark stops matching.
  const dirty = await rowsOf<{ product_code: string; part: string; period: Num; rows: Num; hash: Num }>(
    client,
    `SELECT product_code, part, period, rows, hash FROM (
       ${markedPeriodsSql(b, span, `hour < ${int(before)}${parts}`, `period < ${int(before)}`)}
     ) WHERE settle = 0 ORDER BY product_code, period, part`,
  );
  for (let first = 0; first < dirty.length; first += CHUNK) {
    const chunk = dirty.slice(first, first + CHUNK);
    const settle = settleId();
    const starts = chunk.map((row) => Number(row.period));
    const named = chunk.map((row) => `(${str(row.product_code)}, ${str(row.part)}, ${int(Number(row.period))})`);
    const among = `(product_code, ${b.raw.part}, ${periodOf(span, b.raw.time)}) IN (${named.join(', ')})`;
    await client.command({
      query: `INSERT INTO ${b.table} SELECT ${settle}, * FROM (${b.rows(
        `${within(b.raw.time, [[Math.min(...starts), Math.max(...starts) + span]])} AND ${among}`,
        span,
        true,
      )})`,
      clickhouse_settings: LONG_QUERY,
    });
    const marks = chunk.map(
      (row) =>
        `(${str(b.name)}, ${str(row.product_code)}, ${str(row.part)}, ${int(span)}, ${int(Number(row.period))}, ${BigInt(row.rows)}, ${BigInt(row.hash)}, ${settle})`,
    );
    await client.command({
      query: `INSERT INTO usage_settled_marks (breakdown, product_code, part, span, period, rows, hash, settle) VALUES ${marks.join(', ')}`,
      clickhouse_settings: LONG_QUERY,
    });
  }
  return dirty.length;
};

/** Settles the closed periods (before the one of `now`) of every breakdown and span; answers how many. */
export const settleBreakdowns = async (client: ClickHouseClient, now: number): Promise<number> => {
  let periods = 0;
  for (const b of BREAKDOWNS) for (const span of SPANS) periods += await settleSpan(client, b, span, now);
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
    SELECT ${keys}sum(times) AS n, arraySort(groupArray(v)) AS vs,
      arraySort((x, y) -> y, groupArray(times), groupArray(v)) AS cs, ${picks.join(', ')}
    FROM (SELECT ${keys}v, sum(c) AS times FROM (${rows}) GROUP BY ${keys}v)
    ${groupBy.length > 0 ? `GROUP BY ${groupBy.join(', ')}` : ''})`;
};
