import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * When a session itself passed the second factor (its sign-in finished with one, or a proof of it was
 * given in the session since): an operator's console needs this of the session, not of the account.
 * Sessions from before have none.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema.alterTable('sessions').addColumn('second_factor_at', ms).execute();
};
