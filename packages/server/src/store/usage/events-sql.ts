/**
 * The events store in the accounts database (SQLite or PostgreSQL): writes deduplicated by a unique
 * (product, id) index with rollups kept in the same transaction, retention by batched deletes, and the
 * console's queries on the primary or, for reads, its replica.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { deleteEvents, deleteUsageBefore, type UsageDb, usageDb, writeUsage } from './events.ts';
import type { EventCursor, EventsStore } from './events-store.ts';
import { apiCodes, errorGroups, vitalsSeries } from './monitor-details.ts';
import {
  apiOutcomes,
  durationPercentiles,
  errorCounts,
  eventCounts,
  uniqueVisitors,
  vitalPercentile,
} from './stats.ts';

const countOf = async (db: UsageDb, table: 'usage_events' | 'monitor_beacons') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Integer columns PostgreSQL's driver answers as strings (bigint), back to numbers. */
const asNumbers = <T extends { at: number | string; received_at: number | string; dur: number | string | null }>(
  row: T,
) => ({
  ...row,
  at: Number(row.at),
  received_at: Number(row.received_at),
  dur: row.dur === null ? null : Number(row.dur),
});

export const sqlEventsStore = (primary: Kysely<Database>, reader: Kysely<Database> = primary): EventsStore => {
  const db = usageDb(primary);
  const read = usageDb(reader);
  /** Events in (product, id) order after `after` (of one user's id, when given): export pages. */
  const eventsPage = async (userId: number | undefined, after: EventCursor | undefined, limit: number) => {
    let query = db.selectFrom('usage_events').selectAll().orderBy('product_code').orderBy('event_id').limit(limit);
    if (userId !== undefined) query = query.where('user_id', '=', String(userId));
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('product_code', '>', after.product_code),
          eb.and([eb('product_code', '=', after.product_code), eb('event_id', '>', after.event_id)]),
        ]),
      );
    }
    return (await query.execute()).map(asNumbers);
  };
  return {
    kind: 'sql',
    write: (rows) => writeUsage(db, rows),
    deleteBefore: (before) => deleteUsageBefore(db, before),
    eraseUser: (userId) => deleteEvents(db, ['user_id', '=', String(userId)]),
    eventCounts: async (w, bucketMs, key) =>
      (await eventCounts(read, w, bucketMs, key)).map((row) => ({
        key: row.key,
        bucket: Number(row.bucket),
        count: Number(row.count),
      })),
    uniques: async (w) => {
      const row = await uniqueVisitors(read, w);
      return { devices: Number(row.devices), users: Number(row.users), events: Number(row.events) };
    },
    durationPercentiles: (w, key, fractions) => durationPercentiles(read, w, key, fractions),
    errorCounts: async (w, limit) =>
      (await errorCounts(read, w, limit)).map((row) => ({ message: row.message, count: Number(row.count) })),
    apiOutcomes: async (w, limit) =>
      (await apiOutcomes(read, w, limit)).map((row) => ({
        path: row.path,
        failures: Number(row.failures),
        successes: Number(row.successes),
        business: Number(row.business),
      })),
    vitalPercentile: (w, name, fraction) => vitalPercentile(read, w, name, fraction),
    errorGroups: async (w, limit) =>
      (await errorGroups(read, w, limit)).map((row) => ({
        message: row.message,
        count: Number(row.count),
        pages: Number(row.pages),
        last_seen: Number(row.last_seen),
      })),
    apiCodes: async (w, limit) =>
      (await apiCodes(read, w, limit)).map((row) => ({
        path: row.path,
        code: Number(row.code),
        business: Number(row.business),
        count: Number(row.count),
      })),
    vitalsSeries: async (w, bucketMs) =>
      (await vitalsSeries(read, w, bucketMs)).map((row) => ({
        name: row.name,
        bucket: Number(row.bucket),
        count: Number(row.count),
        value: Number(row.value),
      })),
    counts: async () => ({ events: await countOf(db, 'usage_events'), beacons: await countOf(db, 'monitor_beacons') }),
    eventsAfter: (after, limit) => eventsPage(undefined, after, limit),
    userEventsAfter: (userId, after, limit) => eventsPage(userId, after, limit),
    eventsById: async (product, ids) =>
      ids.length === 0
        ? []
        : (
            await db
              .selectFrom('usage_events')
              .selectAll()
              .where('product_code', '=', product)
              .where('event_id', 'in', [...ids])
              .execute()
          ).map(asNumbers),
    settle: async () => ({ hours: 0, days: 0 }),
    unshipped: () => 0,
    shipSpool: async () => true,
    close: async () => {},
  };
};
