import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Rollups written at ingestion, so the console's counts and uniques do not read every event of a
 * window: events per (product, key, hour), and the devices and users seen per (product, day). Both are
 * filled from the events already stored. The index on (product, at, …) serves the partial hours and
 * days at a window's edges, which are read from the events themselves.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('usage_event_hours')
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('hour', ms, (c) => c.notNull())
    .addColumn('events', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_event_hours_pk', ['product_code', 'event_key', 'hour'])
    .execute();
  await db.schema
    .createIndex('usage_event_hours_hour')
    .on('usage_event_hours')
    .columns(['product_code', 'hour'])
    .execute();

  await db.schema
    .createTable('usage_day_visitors')
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('day', ms, (c) => c.notNull())
    // Visitor before day: a window's distinct visitors are one ordered walk, grouped by visitor.
    .addPrimaryKeyConstraint('usage_day_visitors_pk', ['product_code', 'kind', 'visitor', 'day'])
    .execute();
  await db.schema.createIndex('usage_day_visitors_day').on('usage_day_visitors').columns(['day']).execute();

  await db.schema
    .createIndex('usage_events_window')
    .on('usage_events')
    .columns(['product_code', 'at', 'event_key', 'device_uid', 'user_id'])
    .execute();

  await sql`
    insert into usage_event_hours (product_code, event_key, hour, events)
    select product_code, event_key, (at / 3600000) * 3600000, count(*)
    from usage_events group by product_code, event_key, (at / 3600000) * 3600000`.execute(db);
  for (const [kind, column] of [
    ['device', 'device_uid'],
    ['user', 'user_id'],
  ] as const) {
    await sql`
      insert into usage_day_visitors (product_code, kind, visitor, day)
      select distinct product_code, ${kind}, ${sql.ref(column)}, (at / 86400000) * 86400000
      from usage_events where ${sql.ref(column)} is not null`.execute(db);
  }
};
