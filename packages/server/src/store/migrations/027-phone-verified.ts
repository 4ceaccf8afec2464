import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Whether the account's phone was proved by a code sent to it (1) or only written by an operator's
 * import (0), as `email_verified` is for addresses: applications are told `phone_number_verified`
 * from this. Every phone before came from a code except imported ones.
 */
export const up = async (db: Kysely<unknown>, _context: MigrationContext): Promise<void> => {
  await db.schema
    .alterTable('users')
    .addColumn('phone_verified', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
};
