import type { Kysely } from 'kysely';

/**
 * Indexes for the console's dashboards (bench/console). Percentiles read the n-th value of a sorted
 * column, so their indexes end in it; the monitor queries are covered by one index on the beacons.
 * 002's (product, key, at) is dropped: counts now read the rollups and 005's (product, at, …) index.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createIndex('usage_events_durations')
    .on('usage_events')
    .columns(['product_code', 'event_key', 'dur', 'at'])
    // Only timed events have a duration: the others cost ingestion no entry here.
    .where('dur', 'is not', null)
    .execute();
  await db.schema.dropIndex('usage_events_key_at').execute();
  await db.schema
    .createIndex('monitor_beacons_cover')
    .on('monitor_beacons')
    .columns(['product_code', 'kind', 'received_at', 'name', 'page', 'url', 'code', 'business'])
    .execute();
  await db.schema
    .createIndex('monitor_beacons_values')
    .on('monitor_beacons')
    .columns(['product_code', 'kind', 'name', 'value', 'received_at'])
    .execute();
  // The cover index starts with (product, kind, received_at): 002's index of those three is redundant.
  await db.schema.dropIndex('monitor_beacons_kind_at').execute();
};
