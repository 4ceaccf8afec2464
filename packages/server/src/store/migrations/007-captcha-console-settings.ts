import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  // Operator-chosen provider per product ('*' for the rest), over CAPTCHA_PROVIDER.
  await db.schema
    .createTable('captcha_providers')
    .addColumn('pid', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();

  // Operator-set vendor fields, over the environment's one by one. Secrets are sealed (AES-256-GCM).
  await db.schema
    .createTable('captcha_vendor_keys')
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('captcha_vendor_keys_pk', ['vendor', 'field'])
    .execute();
};
