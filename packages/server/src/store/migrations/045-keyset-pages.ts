import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The lists that grow with a platform page by a key through an index, newest first:
 * - teacher requests, of every school or of one, each status apart (pending first): by role, status
 *   and the time asked, ties broken by school and person;
 * - the reads of one person's record, by subject, time and id (it replaces the index by subject and
 *   time, which the new one covers).
 * The school list pages by its primary key.
 */
export const up = async (db: Kysely<unknown>, _context: MigrationContext): Promise<void> => {
  await db.schema
    .createIndex('school_members_requests')
    .on('school_members')
    .columns(['role', 'status', 'created_at', 'school_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('school_members_school_requests')
    .on('school_members')
    .columns(['school_id', 'role', 'status', 'created_at', 'user_id'])
    .execute();
  await db.schema
    .createIndex('edu_access_log_subject_page')
    .on('edu_access_log')
    .columns(['subject_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('edu_access_log_subject').execute();
};
