import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The education layer's model. Schools have members in roles (`school_admin`, `teacher`; a teacher is
 * `pending` until an operator or a school admin approves); classes belong to a school and have members
 * (`head_teacher`, `teacher`, `pupil`; a pupil who asked with the join code is `pending`). A user may
 * belong to several of each. `pupil_accounts` marks the accounts a school created and owns (its
 * `initial_password_sealed` is printed on the card until the pupil takes the account personal);
 * `sign_in_badges` are the revocable tokens behind the cards' QR codes, stored hashed.
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await id(db.schema.createTable('schools'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** Pupil batches a day for the whole school; null: the configured default. */
    .addColumn('daily_batches', 'integer')
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('school_members')
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('school_members_pk', ['school_id', 'user_id', 'role'])
    .execute();
  await db.schema.createIndex('school_members_user').on('school_members').column('user_id').execute();

  await id(db.schema.createTable('classes'))
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('grade', 'integer', (c) => c.notNull())
    .addColumn('school_year', 'text', (c) => c.notNull())
    .addColumn('join_code', 'text', (c) => c.unique())
    .addColumn('archived_at', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('classes_school').on('classes').column('school_id').execute();
  await db.schema
    .createTable('class_members')
    .addColumn('class_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('class_members_pk', ['class_id', 'user_id'])
    .execute();
  await db.schema.createIndex('class_members_user').on('class_members').column('user_id').execute();

  await db.schema
    .createTable('pupil_accounts')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'bigint', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('initial_password_sealed', 'text')
    .addColumn('must_change_password', 'integer', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pupil_accounts_school').on('pupil_accounts').column('school_id').execute();

  await db.schema
    .createTable('sign_in_badges')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('revoked_at', ms)
    .execute();
  await db.schema.createIndex('sign_in_badges_user').on('sign_in_badges').column('user_id').execute();
};
