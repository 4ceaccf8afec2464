import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * `school_number_pairs`: two accounts of one school that the school's own identifier of a person names
 * both — one under the school's key, the other under the older key a connector gave it before the keys
 * were one per school (migration 047). Only HMACs of identifiers are stored, so the pair is written when
 * a sign-in holds the identifier in clear and finds both keys; the school admin's duplicate list shows it
 * ("same school number") until the two are merged or either account goes. `user_id` < `other_id`.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('school_number_pairs')
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('other_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('school_number_pairs_pk', ['school_id', 'user_id', 'other_id'])
    .execute();
  await db.schema.createIndex('school_number_pairs_user').on('school_number_pairs').column('user_id').execute();
  await db.schema.createIndex('school_number_pairs_other').on('school_number_pairs').column('other_id').execute();
};
