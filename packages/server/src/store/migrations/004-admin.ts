import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await id(db.schema.createTable('admin_audit'))
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_audit_at').on('admin_audit').column('at').execute();
  await db.schema.createIndex('users_username').on('users').column('username').execute();
};
