/**
 * Exact rollups of the ClickHouse events, kept by materialized views (they run on every insert into
 * `usage_events`, spool replays and late batches included, so nothing inserted is missed):
 * - `usage_key_hours`: per (product, key, hour of `at`) the set of event ids (`uniqExactState`);
 * - `usage_product_hours`: per (product, hour of `at`) the sets of ids, devices and users;
 * - `usage_durations`: the timed events alone, sorted by (product, key, at) for percentiles (the
 *   column is `duration`, not `dur`: an alias named like a column would replace it in the WHERE).
 * Sets merge with `uniqExactMerge`, so an id stored twice — in one hour, across inserts, across
 * received days — is counted once, as `uniqExact` over the raw rows counts it. Every rollup is
 * partitioned like the events, by UTC day of `received_at`, so retention drops its days too.
 * Only functions and DDL that ClickHouse 18.16 and current releases both accept.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { DAY_MS, int, rowsOf, str } from './clickhouse-schema.ts';
import type { Window } from './events-store.ts';
import { splitWindow } from './window.ts';

export const HOUR_MS = 3_600_000;

const hourOf = `intDiv(at, ${HOUR_MS}) * ${HOUR_MS}`;
const receivedDay = `intDiv(received_at, ${DAY_MS})`;
/** Nullable columns as `-If` states: the state type is then the same on 18.16 and current releases. */
const visitors = (column: string) => `uniqExactIfState(assumeNotNull(${column}), isNotNull(${column}))`;

/** The state expressions over raw `usage_events` rows, shared by the views and the queries' edges. */
export const STATE = {
  ids: 'uniqExactState(event_id)',
  devices: visitors('device_uid'),
  users: visitors('user_id'),
} as const;

/**
 * Rows per index granule of the id-set rollups: a granule is read whole, and each row holds a set of
 * thousands of ids, so small granules keep a one-key or one-week query from decoding every set.
 */
const SET_GRANULE = 64;

interface Rollup {
  table: string;
  ddl: string;
  /** What the view selects from inserted `usage_events` rows (also used to backfill). */
  select: string;
}

export const ROLLUPS: Rollup[] = [
  {
    table: 'usage_key_hours',
    ddl: `CREATE TABLE IF NOT EXISTS usage_key_hours (
      product_code String, event_key String, hour Int64, day Int64, ids AggregateFunction(uniqExact, String)
    ) ENGINE = AggregatingMergeTree() PARTITION BY day ORDER BY (product_code, event_key, hour)
    SETTINGS index_granularity = ${SET_GRANULE}`,
    select: `SELECT product_code, event_key, ${hourOf} AS hour, ${receivedDay} AS day, ${STATE.ids} AS ids
      FROM usage_events GROUP BY product_code, event_key, hour, day`,
  },
  {
    table: 'usage_product_hours',
    ddl: `CREATE TABLE IF NOT EXISTS usage_product_hours (
      product_code String, hour Int64, day Int64, ids AggregateFunction(uniqExact, String),
      devices AggregateFunction(uniqExactIf, String, UInt8), users AggregateFunction(uniqExactIf, String, UInt8)
    ) ENGINE = AggregatingMergeTree() PARTITION BY day ORDER BY (product_code, hour)
    SETTINGS index_granularity = ${SET_GRANULE}`,
    select: `SELECT product_code, ${hourOf} AS hour, ${receivedDay} AS day, ${STATE.ids} AS ids,
      ${STATE.devices} AS devices, ${STATE.users} AS users
      FROM usage_events GROUP BY product_code, hour, day`,
  },
  {
    table: 'usage_durations',
    ddl: `CREATE TABLE IF NOT EXISTS usage_durations (
      product_code String, event_key String, at Int64, event_id String, duration Int64, day Int64
    ) ENGINE = ReplacingMergeTree() PARTITION BY day ORDER BY (product_code, event_key, at, event_id)`,
    select: `SELECT product_code, event_key, at, event_id, assumeNotNull(dur) AS duration, ${receivedDay} AS day
      FROM usage_events WHERE dur IS NOT NULL`,
  },
];

export const ROLLUP_TABLES = ROLLUPS.map((rollup) => rollup.table);

/**
 * Creates the rollups and their views when missing. A rollup created on a database that already
 * holds events is filled from them once: rows the view also delivered meanwhile only repeat ids,
 * which the sets and the ReplacingMergeTree absorb.
 */
export const ensureRollups = async (client: ClickHouseClient): Promise<void> => {
  const existing = new Set(
    (await rowsOf<{ name: string }>(client, 'SELECT name FROM system.tables WHERE database = currentDatabase()')).map(
      (row) => row.name,
    ),
  );
  for (const { table, ddl, select } of ROLLUPS) {
    await client.command({ query: ddl });
    await client.command({ query: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_view TO ${table} AS ${select}` });
    if (!existing.has(table)) await client.command({ query: `INSERT INTO ${table} ${select}` });
  }
};

/**
 * The rows of a query over a window as states: whole hours from a rollup, the partial hours at the
 * edges from the events themselves, as one UNION ALL whose states the caller merges.
 * `rollup(from, to)` and `raw(condition)` give each part's SELECT.
 */
export const hoursAndEdges = (
  w: Window,
  rollup: (hours: string) => string,
  raw: (condition: string) => string,
): string => {
  const { whole, edges } = splitWindow(w.from, w.to, HOUR_MS);
  const parts: string[] = [];
  if (whole)
    parts.push(rollup(`product_code = ${str(w.product)} AND hour >= ${int(whole[0])} AND hour < ${int(whole[1])}`));
  if (edges.length > 0) {
    const within = edges.map(([from, to]) => `(at >= ${int(from)} AND at < ${int(to)})`).join(' OR ');
    parts.push(raw(`product_code = ${str(w.product)} AND (${within})`));
  }
  // An empty window: one part that matches nothing, so the query still has rows to merge.
  if (parts.length === 0) parts.push(raw(`product_code = ${str(w.product)} AND 0`));
  return parts.join(' UNION ALL ');
};
