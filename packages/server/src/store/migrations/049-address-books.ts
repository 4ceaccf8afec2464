import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Schools' home-school address books (WeCom 家校沟通, DingTalk K12) read as roster sources.
 * `address_books`: one a school and vendor — the app's id, its secret sealed, the operator's schedule
 * (`off`, `hourly`, `daily`), when the next scheduled sync is due and the report of the last one.
 * `guardian_invites`: a guardian the school's book lists for a pupil, waiting for that guardian to
 * confirm (an SMS code to the phone the school recorded): the school's record is not the guardian's
 * consent. Keyed by the HMAC of the book's guardian and pupil ids, as roster links are; `phone` is the
 * number the school recorded (null when the app may not read it: the guardian confirms with a code the
 * school hands over instead).
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('address_books')
    .$call(id)
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('schedule', 'text', (c) => c.notNull())
    .addColumn('next_sync_at', ms)
    .addColumn('last_report', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addUniqueConstraint('address_books_school_vendor', ['school_id', 'vendor'])
    .execute();
  await db.schema.createIndex('address_books_due').on('address_books').column('next_sync_at').execute();
  await db.schema
    .createTable('guardian_invites')
    .$call(id)
    .addColumn('source_hash', 'text', (c) => c.notNull().unique())
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('child_id', 'bigint', (c) => c.notNull())
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('confirmed_at', ms)
    .addColumn('guardian_id', 'bigint')
    .execute();
  await db.schema.createIndex('guardian_invites_phone').on('guardian_invites').column('phone').execute();
  await db.schema.createIndex('guardian_invites_child').on('guardian_invites').column('child_id').execute();
  await db.schema.createIndex('guardian_invites_guardian').on('guardian_invites').column('guardian_id').execute();
  await db.schema.createIndex('guardian_invites_school').on('guardian_invites').column('school_id').execute();
};
