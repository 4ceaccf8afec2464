/**
 * The events store: where usage events and monitor beacons live, behind one interface. The SQL store
 * (store/usage/events-sql.ts) keeps them in the accounts database (SQLite or PostgreSQL, one machine); the
 * ClickHouse store (store/usage/clickhouse-events.ts) keeps them apart, selected by USAGE_DATABASE_URL.
 * Every answer is in plain numbers, the same on every store for the same rows.
 */
import type { UsageWindow } from '@edupass/protocol';
import type { NewBeacon, NewUsageEvent, PendingRows, UsageEventsTable } from './events.ts';

export type { NewBeacon, NewUsageEvent, PendingRows };

/** A product's time window in unix ms: the protocol's, as the console sends it. */
export type Window = UsageWindow;

export interface EventCount {
  key: string;
  bucket: number;
  count: number;
}

export interface Uniques {
  devices: number;
  users: number;
  events: number;
}

export interface Percentiles {
  count: number;
  /** The value at each fraction (nearest rank: the ⌈f·n⌉-th smallest), null when there is none. */
  values: (number | null)[];
}

export interface ErrorCount {
  message: string | null;
  count: number;
}

export interface ApiOutcome {
  path: string | null;
  failures: number;
  successes: number;
  business: number;
}

export interface ErrorGroupRow {
  message: string | null;
  count: number;
  pages: number;
  last_seen: number;
}

export interface ApiCodeRow {
  path: string | null;
  code: number;
  business: number;
  count: number;
}

export interface VitalRow {
  name: string;
  bucket: number;
  count: number;
  value: number;
}

/** A stored event, every column (what export writes and import reads). */
export type StoredEvent = UsageEventsTable;

export interface EventCursor {
  product_code: string;
  event_id: string;
}

export interface EventsStore {
  /** Where the rows go: 'sql' (the accounts database) or 'clickhouse'. */
  readonly kind: 'sql' | 'clickhouse';
  /**
   * Stores the rows; resolves once they are durable (committed, accepted by ClickHouse, or in the
   * local spool that ships them later). An event id already stored is not counted again.
   */
  write(rows: PendingRows): Promise<void>;
  /** Retention: removes what was received before `before` (unix ms); answers how many rows went. */
  deleteBefore(before: number): Promise<{ events: number; beacons: number }>;
  /**
   * Erasure: removes every event reported under the user's id (and, ClickHouse, the visitor marks made
   * of it), the dashboards' counts adjusted. SQL answers how many went; ClickHouse deletes in the
   * background (a mutation) and answers -1.
   */
  eraseUser(userId: number): Promise<number>;
  /**
   * The sweep's turn to precompute dashboard answers for what stopped changing before `now`
   * (ClickHouse: store/usage/clickhouse-settled.ts, clickhouse-breakdowns.ts); answers how many hours
   * (counts and breakdowns, each per key or kind) and visitor days it settled.
   * Nothing to do for SQL, whose rollups are exact at ingestion.
   */
  settle(now: number): Promise<{ hours: number; days: number }>;

  eventCounts(w: Window, bucketMs: number, key: string | undefined): Promise<EventCount[]>;
  uniques(w: Window): Promise<Uniques>;
  durationPercentiles(w: Window, key: string, fractions: number[]): Promise<Percentiles>;
  errorCounts(w: Window, limit: number): Promise<ErrorCount[]>;
  apiOutcomes(w: Window, limit: number): Promise<ApiOutcome[]>;
  vitalPercentile(w: Window, name: string, fraction: number): Promise<{ count: number; value: number | null }>;
  errorGroups(w: Window, limit: number): Promise<ErrorGroupRow[]>;
  apiCodes(w: Window, limit: number): Promise<ApiCodeRow[]>;
  /** p75 of each vital per bucket of `received_at`. */
  vitalsSeries(w: Window, bucketMs: number): Promise<VitalRow[]>;

  /** Distinct events and beacons stored. */
  counts(): Promise<{ events: number; beacons: number }>;
  /** Events in (product, id) order after `after`, each id once: export pages. */
  eventsAfter(after: EventCursor | undefined, limit: number): Promise<StoredEvent[]>;
  /** The events reported under the user's id, in the same order and pages (a person's copy of their data). */
  userEventsAfter(userId: number, after: EventCursor | undefined, limit: number): Promise<StoredEvent[]>;
  /** The stored events with these ids (each once). */
  eventsById(product: string, ids: readonly string[]): Promise<StoredEvent[]>;
  /** Batches acknowledged but not yet in the events database (the ClickHouse spool); 0 for SQL. */
  unshipped(): number;
  /** Resolves once the spool is empty (tests, shutdown); true at once for SQL. */
  shipSpool(): Promise<boolean>;
  close(): Promise<void>;
}
