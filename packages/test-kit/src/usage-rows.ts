/**
 * Usage event rows for tests that write the store directly (every column, the optional ones empty),
 * and the rollup rows those tests read back.
 */
import { randomUUID } from 'node:crypto';
import type { UsageDb } from '../../server/src/store/usage/events.ts';
import type { NewUsageEvent } from '../../server/src/store/usage/events-store.ts';

export const usageEventRow = (
  fields: Pick<NewUsageEvent, 'product_code' | 'event_key' | 'at' | 'received_at'> & Partial<NewUsageEvent>,
): NewUsageEvent => ({
  event_id: randomUUID(),
  dur: null,
  data: '{}',
  device_uid: null,
  user_id: null,
  process_id: null,
  ip: '127.0.0.1',
  ua: null,
  platform: null,
  net: null,
  language: null,
  resolution: null,
  cpu: null,
  density: null,
  is_dev: 0,
  ...fields,
});

/** A product's hourly counts (`usage_event_hours`), by hour then key. */
export const hourRollupRows = async (db: UsageDb, product: string) =>
  (
    await db
      .selectFrom('usage_event_hours')
      .select(['event_key', 'hour', 'events'])
      .where('product_code', '=', product)
      .orderBy('hour')
      .orderBy('event_key')
      .execute()
  ).map((row) => ({ event_key: row.event_key, hour: Number(row.hour), events: Number(row.events) }));

/** A product's daily visitors (`usage_day_visitors`) as sorted 'kind visitor day' lines. */
export const visitorRollupRows = async (db: UsageDb, product: string) =>
  (
    await db
      .selectFrom('usage_day_visitors')
      .select(['kind', 'visitor', 'day'])
      .where('product_code', '=', product)
      .execute()
  )
    .map((row) => `${row.kind} ${row.visitor} ${Number(row.day)}`)
    .sort();
