import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Roster imports (OneRoster 1.2 CSV or the Chinese-header template). `roster_jobs`: each upload, its
 * rows as read (ids already replaced by HMACs) until it is applied, and its preview. `roster_links`:
 * which school, class, account or class membership each roster id became, keyed by the HMAC of the
 * id (never the id itself: a sourcedId is often the student number), so a later file updates the same
 * records and a re-import changes nothing. A class or person a later file leaves out keeps its link
 * with `removed_at` set, so coming back in a later file finds the same class or account.
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('roster_jobs')
    .$call(id)
    .addColumn('created_by', 'bigint')
    .addColumn('school_id', 'bigint')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('roster', 'text', (c) => c.notNull())
    .addColumn('preview', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('applied_at', ms)
    .execute();
  await db.schema
    .createTable('roster_links')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_hash', 'text', (c) => c.notNull())
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('class_id', 'bigint')
    .addColumn('user_id', 'bigint')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('removed_at', ms)
    .addPrimaryKeyConstraint('roster_links_pk', ['kind', 'source_hash'])
    .execute();
  await db.schema.createIndex('roster_links_school').on('roster_links').columns(['school_id', 'kind']).execute();
  await db.schema.createIndex('roster_links_user').on('roster_links').column('user_id').execute();
};
