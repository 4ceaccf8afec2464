import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Deletion with a grace period: an account asked to be deleted is frozen until `erase_at`, when the
 * sweep erases it (services/account/deletion.ts); `erase_requested_by` says who asked (`user` or
 * `operator`), for the `user.deleted` event sent then. Both null: the account is not being deleted.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema.alterTable('users').addColumn('erase_at', ms).execute();
  await db.schema.alterTable('users').addColumn('erase_requested_by', 'text').execute();
  await db.schema.createIndex('users_erase_at').on('users').column('erase_at').execute();
};
