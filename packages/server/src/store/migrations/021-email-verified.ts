import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Whether the account's e-mail address was proved by a code sent to it (1) or only written by an
 * operator's import (0): applications are told `email_verified` from this. Every address before came
 * from a code (sign-up, binding) except imported ones, which the old import could not tell apart.
 */
export const up = async (db: Kysely<unknown>, _context: MigrationContext): Promise<void> => {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
};
