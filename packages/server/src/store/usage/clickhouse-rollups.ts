/**
 * Exact rollups of the ClickHouse events and beacons, kept by materialized views (they run on every
 * insert into `usage_events` or `monitor_beacons`, spool replays and late batches included, so nothing inserted is missed):
 * - `usage_key_hours`: per (product, key, hour of `at`) the set of event ids (`uniqExactState`) and
 *   the fingerprint of the rows inserted (store/usage/clickhouse-settled.ts);
 * - `monitor_beacon_hours`: per (product, kind, hour of `received_at`) the fingerprint of the beacons
 *   inserted (store/usage/clickhouse-breakdowns.ts);
 * - `usage_durations`: the timed events alone, sorted by (product, key, at) for percentiles (the
 *   column is `duration`, not `dur`: an alias named like a column would replace it in the WHERE).
 * Sets merge with `uniqExactMerge`, so an id stored twice — in one hour, across inserts, across
 * received days — is counted once, as `uniqExact` over the raw rows counts it. Every rollup is
 * partitioned like the events, by UTC day of `received_at`, so retention drops its days too.
 * Only functions and DDL that ClickHouse 18.16 and current releases both accept.
 */

import type { ClickHouseClient } from '@clickhouse/client';
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import { rowsOf } from './clickhouse-schema.ts';

const hourOf = `intDiv(at, ${HOUR_MS}) * ${HOUR_MS}`;
const receivedDay = `intDiv(received_at, ${DAY_MS})`;

/** The state expressions over raw `usage_events` rows the key rollup's view keeps. */
const STATE = {
  ids: 'uniqExactState(event_id)',
  /** The fingerprint of what was inserted (rows and a sum of their hashes): see clickhouse-settled.ts. */
  rows: 'countState()',
  hash: 'sumState(sipHash64(event_id, received_at))',
} as const;

/**
 * Rows per index granule of the id-set rollups: a granule is read whole, and each row holds a set of
 * thousands of ids, so small granules keep a one-key or one-week query from decoding every set.
 */
const SET_GRANULE = 64;

interface Rollup {
  table: string;
  ddl: string;
  /** What the view selects from inserted rows (also used to backfill). */
  select: string;
}

export const ROLLUPS: Rollup[] = [
  {
    table: 'usage_key_hours',
    ddl: `CREATE TABLE IF NOT EXISTS usage_key_hours (
      product_code String, event_key String, hour Int64, day Int64, ids AggregateFunction(uniqExact, String),
      rows AggregateFunction(count), hash AggregateFunction(sum, UInt64)
    ) ENGINE = AggregatingMergeTree() PARTITION BY day ORDER BY (product_code, event_key, hour)
    SETTINGS index_granularity = ${SET_GRANULE}`,
    select: `SELECT product_code, event_key, ${hourOf} AS hour, ${receivedDay} AS day, ${STATE.ids} AS ids,
      ${STATE.rows} AS rows, ${STATE.hash} AS hash
      FROM usage_events GROUP BY product_code, event_key, hour, day`,
  },
  {
    table: 'monitor_beacon_hours',
    ddl: `CREATE TABLE IF NOT EXISTS monitor_beacon_hours (
      product_code String, kind String, hour Int64, day Int64, rows AggregateFunction(count),
      hash AggregateFunction(sum, UInt64)
    ) ENGINE = AggregatingMergeTree() PARTITION BY day ORDER BY (product_code, kind, hour)`,
    select: `SELECT product_code, kind, intDiv(received_at, ${HOUR_MS}) * ${HOUR_MS} AS hour, ${receivedDay} AS day,
      countState() AS rows, sumState(sipHash64(beacon_id, received_at)) AS hash
      FROM monitor_beacons GROUP BY product_code, kind, hour, day`,
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
  // A key rollup from before the fingerprint columns is built again (the events hold everything it held).
  const [fingerprinted] = await rowsOf<{ n: string }>(
    client,
    `SELECT count() AS n FROM system.columns WHERE database = currentDatabase() AND table = 'usage_key_hours' AND name = 'hash'`,
  );
  if (existing.has('usage_key_hours') && Number(fingerprinted?.n) === 0) {
    await client.command({ query: 'DROP TABLE IF EXISTS usage_key_hours_view' });
    await client.command({ query: 'DROP TABLE usage_key_hours' });
    existing.delete('usage_key_hours');
  }
  // The product rollup of earlier releases (visitor sets per hour) gave way to the settled visitor masks.
  await client.command({ query: 'DROP TABLE IF EXISTS usage_product_hours_view' });
  await client.command({ query: 'DROP TABLE IF EXISTS usage_product_hours' });
  for (const { table, ddl, select } of ROLLUPS) {
    await client.command({ query: ddl });
    await client.command({ query: `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_view TO ${table} AS ${select}` });
    if (!existing.has(table)) await client.command({ query: `INSERT INTO ${table} ${select}` });
  }
};
