/**
 * The ClickHouse events database: connection from USAGE_DATABASE_URL, the tables, and SQL literals.
 * Kept to what ClickHouse 18.16 (Debian's) and current releases both accept: MergeTree engines with
 * partitions (no TTL), JSONEachRow inserts, values written as literals (query parameters came later).
 */

import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { DAY_MS } from '@edupass/protocol';

/**
 * Events: one row per (product, event day, id) once merged — a retried batch, a spool replay or a
 * second instance's copy of an event has the same event time, so it lands on the same key and is
 * replaced. Queries never rely on merges having happened: they count distinct ids (`uniqExact`).
 * Partitions are UTC days of `received_at`, so retention drops whole days.
 */
const EVENTS_TABLE = `CREATE TABLE IF NOT EXISTS usage_events (
  product_code String, event_id String, event_key String, at Int64, received_at Int64,
  dur Nullable(Int64), data String, device_uid Nullable(String), user_id Nullable(String),
  process_id Nullable(String), ip String, ua Nullable(String), platform Nullable(String),
  net Nullable(String), language Nullable(String), resolution Nullable(String), cpu Nullable(Int64),
  density Nullable(Float64), is_dev UInt8
) ENGINE = ReplacingMergeTree()
PARTITION BY intDiv(received_at, ${DAY_MS})
ORDER BY (product_code, intDiv(at, ${DAY_MS}), event_id)`;

/** Beacons get their id on arrival, so a spool replay of a batch is recognised as the same rows. */
const BEACONS_TABLE = `CREATE TABLE IF NOT EXISTS monitor_beacons (
  beacon_id String, product_code String, kind String, page String, name Nullable(String),
  value Nullable(Float64), url Nullable(String), method Nullable(String), code Nullable(Int64),
  business Nullable(Int64), stack Nullable(String), ip String, ua Nullable(String), at Int64,
  received_at Int64
) ENGINE = ReplacingMergeTree()
PARTITION BY intDiv(received_at, ${DAY_MS})
ORDER BY (product_code, kind, received_at, beacon_id)`;

/** A string as a ClickHouse literal. */
export const str = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** An integer as a literal (anything else is a programming error, never user text in SQL). */
export const int = (value: number): string => {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
};

/** A fraction in [0, 1] as a literal. */
export const fraction = (value: number): string => {
  if (!(Number.isFinite(value) && value >= 0 && value <= 1)) throw new Error(`not a fraction: ${value}`);
  return String(value);
};

export interface ClickHouseTarget {
  /** http(s)://host:port of the HTTP interface. */
  url: string;
  database: string;
  username: string;
  password: string;
}

/**
 * `clickhouse://user:password@host:8123/database` (plain HTTP) or `clickhouses://…` (HTTPS); the port
 * defaults to 8123 (8443 with TLS), the database to `edupass`.
 */
export const parseClickHouseUrl = (text: string): ClickHouseTarget => {
  const url = new URL(text);
  const tls = url.protocol === 'clickhouses:' || url.protocol === 'https:';
  const port = url.port || (tls ? '8443' : '8123');
  return {
    url: `${tls ? 'https' : 'http'}://${url.hostname}:${port}`,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'edupass',
    username: decodeURIComponent(url.username) || 'default',
    password: decodeURIComponent(url.password),
  };
};

export const isClickHouseUrl = (text: string): boolean => /^clickhouses?:\/\//i.test(text);

export const connectClickHouse = (target: ClickHouseTarget, requestTimeoutMs: number): ClickHouseClient =>
  createClient({
    url: target.url,
    username: target.username,
    password: target.password,
    database: target.database,
    request_timeout: requestTimeoutMs,
    // A restarted server closes idle sockets: do not reuse one past a short idle time.
    keep_alive: { enabled: true, idle_socket_ttl: 1000 },
    // Failures are the store's to report (a refused insert is logged once, as spooled).
    log: { level: ClickHouseLogLevel.OFF },
  });

/** Creates the database and tables when missing (idempotent: every process may run it at start). */
export const ensureSchema = async (target: ClickHouseTarget, requestTimeoutMs: number): Promise<void> => {
  const admin = connectClickHouse({ ...target, database: 'default' }, requestTimeoutMs);
  try {
    await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoteName(target.database)}` });
  } finally {
    await admin.close();
  }
  const client = connectClickHouse(target, requestTimeoutMs);
  try {
    for (const ddl of [EVENTS_TABLE, BEACONS_TABLE]) await client.command({ query: ddl });
  } finally {
    await client.close();
  }
};

/** A database name as an identifier: letters, digits and underscores only. */
export const quoteName = (name: string): string => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`bad ClickHouse database name "${name}"`);
  return `\`${name}\``;
};

/**
 * Long literal lists (a year of settled hours) go past ClickHouse's default 256 KiB query and 50,000
 * syntax elements; the lists are built from numbers and quoted names only, so queries may be longer.
 */
export const LONG_QUERY = { max_query_size: String(16 << 20), max_ast_elements: '5000000' };

/** Rows of a query, as JSON objects (64-bit integers come back as strings). */
export const rowsOf = async <T>(client: ClickHouseClient, query: string): Promise<T[]> =>
  (await client.query({ query, format: 'JSONEachRow', clickhouse_settings: LONG_QUERY })).json<T>();
