import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Minor mode set by a guardian (services/edu/minor-mode.ts): one row per child whose linked guardian
 * made the operator's defaults stricter — the daily minutes and the curfew (`HH:MM-HH:MM`), each null
 * for the operator's default — with who set them and when. No row: the operator's defaults apply.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('minor_settings')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('daily_limit_minutes', 'integer')
    .addColumn('curfew', 'text')
    .addColumn('updated_by', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();
};
