import { type Kysely, sql } from 'kysely';

/**
 * What the hourly sweep (services/platform/housekeeping.ts) now deletes, found through an index, and
 * the access log's one row per read a day:
 * - `sessions_live_created`: sessions never ended, by when they began (the sweep deletes those past
 *   their absolute age and their last token's life); ended sessions need no entry (`sessions_revoked`);
 * - `sign_in_badges_revoked`: ended login cards, by when they ended; live cards need no entry;
 * - `edu_access_log.read_key`: a key of the reader, the person, why, the fields shown and the day
 *   (services/edu/access-log.ts); unique, so the same read again that day writes no second row. Rows
 *   written before have none (a unique index lets any number of nulls through).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createIndex('sessions_live_created')
    .on('sessions')
    .column('created_at')
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('sign_in_badges_revoked')
    .on('sign_in_badges')
    .column('revoked_at')
    .where(sql.ref('revoked_at'), 'is not', null)
    .execute();
  await db.schema.alterTable('edu_access_log').addColumn('read_key', 'text').execute();
  await db.schema.createIndex('edu_access_log_read').on('edu_access_log').column('read_key').unique().execute();
};
