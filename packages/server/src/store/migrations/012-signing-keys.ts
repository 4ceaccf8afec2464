import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Asymmetric keys that sign access tokens, one row per generation (the primary key makes two
 * processes creating or rotating at once agree: one insert wins). The private key is sealed with the
 * secret from outside the database; `signs_from` is when the key starts signing (it is published
 * in the JWKS from `created_at`). Sessions remember the product they were started for (the tokens'
 * audience).
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('signing_keys')
    .addColumn('generation', 'bigint', (c) => c.primaryKey())
    .addColumn('kid', 'text', (c) => c.notNull().unique())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('signs_from', ms, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('sessions').addColumn('pid', 'text').execute();
};
