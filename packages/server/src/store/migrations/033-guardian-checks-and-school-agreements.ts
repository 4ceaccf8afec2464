import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * What stands behind a child's consent (services/edu/adult-check.ts, school-agreements.ts):
 * - `guardian_adult_checks`: a guardian's adult check through the real-name vendor — the result, the
 *   vendor and its request id, the time. Never the name or the ID number;
 * - `guardian_consents.adult_check_*`: the check a consent was given after (vendor, request id, time);
 * - `school_agreements`: a school's agreement for the pupils its teachers create — who signed for the
 *   school and on which day, the consent text's version, the operator who recorded it and when, and
 *   when it was ended. The newest row not ended is the one in force.
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await id(db.schema.createTable('guardian_adult_checks'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('guardian_adult_checks_user')
    .on('guardian_adult_checks')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.alterTable('guardian_consents').addColumn('adult_check_vendor', 'text').execute();
  await db.schema.alterTable('guardian_consents').addColumn('adult_check_request_id', 'text').execute();
  await db.schema.alterTable('guardian_consents').addColumn('adult_check_at', ms).execute();
  await id(db.schema.createTable('school_agreements'))
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('signatory', 'text', (c) => c.notNull())
    .addColumn('signed_on', 'text', (c) => c.notNull())
    .addColumn('text_version', 'integer', (c) => c.notNull())
    .addColumn('recorded_by', 'bigint', (c) => c.notNull())
    .addColumn('recorded_at', ms, (c) => c.notNull())
    .addColumn('ended_at', ms)
    .execute();
  await db.schema
    .createIndex('school_agreements_school')
    .on('school_agreements')
    .columns(['school_id', 'recorded_at'])
    .execute();
};
