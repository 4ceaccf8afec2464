/** Usage events and monitor beacons: writes (batched, deduplicated) and retention. */
import { CompiledQuery, type Generated, type Insertable, type Kysely } from 'kysely';
import { sqliteConnection } from '../db.ts';
import type { Database } from '../schema.ts';
import { EVENT_COLUMNS } from './event-columns.ts';
import { writeUsageSqlite } from './events-sqlite.ts';
import {
  addToRollups,
  forgetVisitors,
  type InsertedEvent,
  rebuildVisitorDays,
  subtractFromRollups,
  type UsageDayVisitorsTable,
  type UsageEventHoursTable,
  type VisitorDay,
  visitorDays,
} from './rollups.ts';

export interface UsageEventsTable {
  product_code: string;
  event_id: string;
  event_key: string;
  /** Client event time (corrected by the server-time offset), unix ms. */
  at: number;
  received_at: number;
  /** Timed events: visible milliseconds. */
  dur: number | null;
  /** Business data, as JSON. */
  data: string;
  device_uid: string | null;
  user_id: string | null;
  process_id: string | null;
  ip: string;
  ua: string | null;
  platform: string | null;
  net: string | null;
  language: string | null;
  resolution: string | null;
  cpu: number | null;
  density: number | null;
  is_dev: number;
}

export interface MonitorBeaconsTable {
  id: Generated<number>;
  product_code: string;
  kind: string;
  page: string;
  name: string | null;
  value: number | null;
  url: string | null;
  method: string | null;
  code: number | null;
  business: number | null;
  stack: string | null;
  ip: string;
  ua: string | null;
  at: number;
  received_at: number;
}

// A type alias, not an interface: withTables() needs an index-compatible record.
export type UsageTables = {
  usage_events: UsageEventsTable;
  monitor_beacons: MonitorBeaconsTable;
  usage_event_hours: UsageEventHoursTable;
  usage_day_visitors: UsageDayVisitorsTable;
};

export type UsageDb = Kysely<Database & UsageTables>;
export type NewUsageEvent = Insertable<UsageEventsTable>;
export type NewBeacon = Insertable<MonitorBeaconsTable>;

export const usageDb = (db: Kysely<Database>): UsageDb => db.withTables<UsageTables>();

/** Rows per INSERT statement: 19 columns × 500 stays under SQLite's 32766 bound parameters. */
const CHUNK = 500;

export interface PendingRows {
  events: NewUsageEvent[];
  beacons: NewBeacon[];
}

/**
 * The SQL of an n-row event insert, compiled by Kysely once per dialect and row count. Building the
 * query per chunk cost more than SQLite's insert itself under load (the profile: ~13% of ingestion).
 */
const eventInsertSql = new Map<string, string>();

const eventInsert = (db: UsageDb, rows: NewUsageEvent[]): CompiledQuery => {
  const key = `${db.getExecutor().adapter.constructor.name}:${rows.length}`;
  let text = eventInsertSql.get(key);
  if (text === undefined) {
    const template = Object.fromEntries(EVENT_COLUMNS.map((column) => [column, 0])) as unknown as NewUsageEvent;
    const compiled = db
      .insertInto('usage_events')
      .values(rows.map(() => template))
      .onConflict((oc) => oc.columns(['product_code', 'event_id']).doNothing())
      // Only the rows actually inserted come back: what the rollups count.
      .returning(['product_code', 'event_key', 'at', 'device_uid', 'user_id'])
      .compile();
    // Every value must be a bound parameter, in row-major column order, for the reuse to be right.
    if (compiled.parameters.length !== rows.length * EVENT_COLUMNS.length) throw new Error('unexpected insert shape');
    text = compiled.sql;
    eventInsertSql.set(key, text);
  }
  // One preallocated array filled in a plain loop: flatMap of per-row arrays cost ~5% of ingestion.
  const parameters: unknown[] = new Array(rows.length * EVENT_COLUMNS.length);
  let i = 0;
  for (const row of rows) for (const column of EVENT_COLUMNS) parameters[i++] = row[column] ?? null;
  return CompiledQuery.raw(text, parameters);
};

/** `writeUsage` through Kysely: one chunked multi-row INSERT … RETURNING, then the rollups of what it returned. */
const writeUsageKysely = (db: UsageDb, { events, beacons }: PendingRows) =>
  db.transaction().execute(async (tx) => {
    const inserted: InsertedEvent[] = [];
    for (let i = 0; i < events.length; i += CHUNK) {
      const result = await tx.executeQuery<InsertedEvent>(eventInsert(tx, events.slice(i, i + CHUNK)));
      for (const row of result.rows) inserted.push(row);
    }
    await addToRollups(tx, inserted);
    for (let i = 0; i < beacons.length; i += CHUNK) {
      await tx
        .insertInto('monitor_beacons')
        .values(beacons.slice(i, i + CHUNK))
        .execute();
    }
  });

/**
 * Writes many requests' rows in one transaction: one commit for the lot. An event id already stored
 * is skipped, so a retried batch changes nothing — the rollups included. On SQLite the transaction
 * runs on better-sqlite3's own statements (events-sqlite.ts), holding Kysely's connection meanwhile.
 */
export const writeUsage = async (db: UsageDb, rows: PendingRows): Promise<void> => {
  const sqlite = sqliteConnection(db);
  if (sqlite === undefined) return writeUsageKysely(db, rows);
  await db.connection().execute(async () => writeUsageSqlite(db, sqlite, rows));
};

export const productCodes = async (db: UsageDb): Promise<string[]> =>
  (await db.selectFrom('products').select('product_code').distinct().execute()).map((row) => row.product_code);

/** Rows one retention statement deletes at most, so no transaction holds a lock for long. */
export const RETENTION_BATCH = 5_000;

/** Which events a deletion takes: those received before a time (retention), or one user's (erasure). */
export type EventsToDelete = ['received_at', '<', number] | ['user_id', '=', string];

/**
 * Deletes the events `which` names, batch by batch, each batch with its rollup adjustment in one
 * transaction (from the rows the delete returned). Retention rebuilds the visitor sets of the days it
 * touched once at the end, from the events left; erasing a user instead takes that user and their
 * devices out of the days they were seen (`forgetVisitors`), never recounting a day. Answers how many
 * events went.
 */
export const deleteEvents = async (db: UsageDb, which: EventsToDelete, batch = RETENTION_BATCH) => {
  let events = 0;
  const days = new Map<string, { product_code: string; day: number }>();
  const visitors = new Map<string, VisitorDay>();
  for (;;) {
    const deleted = await db.transaction().execute(async (tx) => {
      const rows = await tx
        .deleteFrom('usage_events')
        .where(({ eb, refTuple, selectFrom }) =>
          eb(
            refTuple('product_code', 'event_id'),
            'in',
            selectFrom('usage_events')
              .select(['product_code', 'event_id'])
              .where((w) => (which[0] === 'user_id' ? w('user_id', '=', which[2]) : w('received_at', '<', which[2])))
              .limit(batch)
              .$asTuple('product_code', 'event_id'),
          ),
        )
        .returning(['product_code', 'event_key', 'at', 'device_uid', 'user_id'])
        .execute();
      for (const day of await subtractFromRollups(tx, rows)) days.set(`${day.product_code}\u0000${day.day}`, day);
      for (const visitor of visitorDays(rows)) visitors.set(Object.values(visitor).join('\u0000'), visitor);
      return rows.length;
    });
    events += deleted;
    if (deleted < batch) break;
  }
  if (which[0] === 'user_id') {
    if (visitors.size > 0) await db.transaction().execute((tx) => forgetVisitors(tx, [...visitors.values()]));
  } else if (days.size > 0) {
    await db.transaction().execute((tx) => rebuildVisitorDays(tx, [...days.values()]));
  }
  return events;
};

/**
 * Retention: removes what was received before `before` (unix ms), events (`deleteEvents`) and
 * beacons, batch by batch.
 */
export const deleteUsageBefore = async (db: UsageDb, before: number, batch = RETENTION_BATCH) => {
  const events = await deleteEvents(db, ['received_at', '<', before], batch);
  let beacons = 0;
  for (;;) {
    const result = await db
      .deleteFrom('monitor_beacons')
      .where('id', 'in', (eb) =>
        eb.selectFrom('monitor_beacons').select('id').where('received_at', '<', before).limit(batch),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    beacons += deleted;
    if (deleted < batch) break;
  }
  return { events, beacons };
};
