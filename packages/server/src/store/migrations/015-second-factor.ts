import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Second factors: an authenticator app's TOTP secret (sealed; `confirmed_at` null until a first code
 * proves the enrolment, `last_step` the newest time step used so a code cannot be replayed), passkeys
 * (WebAuthn public-key credentials, several per user) and single-use recovery codes (hashed).
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('totp_secrets')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', ms)
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await id(db.schema.createTable('passkeys'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('last_used_at', ms)
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', ms)
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
};
