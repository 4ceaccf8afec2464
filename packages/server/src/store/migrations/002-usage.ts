import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/** Usage events (deduplicated by product and event id) and monitor beacons. */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('usage_events')
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('at', ms, (c) => c.notNull())
    .addColumn('received_at', ms, (c) => c.notNull())
    .addColumn('dur', 'bigint')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('device_uid', 'text')
    .addColumn('user_id', 'text')
    .addColumn('process_id', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('ua', 'text')
    .addColumn('platform', 'text')
    .addColumn('net', 'text')
    .addColumn('language', 'text')
    .addColumn('resolution', 'text')
    .addColumn('cpu', 'integer')
    .addColumn('density', 'double precision')
    .addColumn('is_dev', 'integer', (c) => c.notNull())
    // The key that makes a retried batch a no-op.
    .addPrimaryKeyConstraint('usage_events_pk', ['product_code', 'event_id'])
    .execute();
  await db.schema
    .createIndex('usage_events_key_at')
    .on('usage_events')
    .columns(['product_code', 'event_key', 'at'])
    .execute();
  await db.schema.createIndex('usage_events_received').on('usage_events').column('received_at').execute();

  await id(db.schema.createTable('monitor_beacons'))
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('value', 'double precision')
    .addColumn('url', 'text')
    .addColumn('method', 'text')
    .addColumn('code', 'integer')
    .addColumn('business', 'integer')
    .addColumn('stack', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('ua', 'text')
    .addColumn('at', ms, (c) => c.notNull())
    .addColumn('received_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('monitor_beacons_kind_at')
    .on('monitor_beacons')
    .columns(['product_code', 'kind', 'received_at'])
    .execute();
};
