import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Who read what of a pupil's record in the education layer: one row per read of one pupil (the
 * reader, the pupil, the fields shown, why), written by the service that answered the read
 * (services/edu/access-log.ts). Read back by pupil, newest first.
 * A class's join code now lapses: `join_code_expires_at` (a code opened before has none and is
 * refused; the teacher opens a new one).
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema.alterTable('classes').addColumn('join_code_expires_at', ms).execute();
  await id(db.schema.createTable('edu_access_log'))
    .addColumn('reader_id', 'bigint', (c) => c.notNull())
    .addColumn('subject_id', 'bigint', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('edu_access_log_subject')
    .on('edu_access_log')
    .columns(['subject_id', 'created_at'])
    .execute();
};
