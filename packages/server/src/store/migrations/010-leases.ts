import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Named leases held by one process at a time, until `expires_at` (a holder that dies lets go then):
 * on SQLite, which has no advisory locks, the hourly sweep takes one (store/sweep-lock.ts).
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .execute();
};
