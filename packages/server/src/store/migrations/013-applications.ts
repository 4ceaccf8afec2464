import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The applications that sign their users in through EduPass's OpenID Connect provider, and what the
 * provider keeps between requests (sessions, interactions, codes, tokens, grants): one row per model
 * and id, its payload as JSON, gone after `expires_at` (the hourly sweep).
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('applications')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
    .addColumn('first_party', 'integer', (c) => c.notNull())
    // Confidential applications: the secret's hash (the secret itself is shown once). Public: null.
    .addColumn('secret_hash', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oidc_models')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('consumed_at', ms)
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_models_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_models_grant').on('oidc_models').column('grant_id').execute();
  await db.schema.createIndex('oidc_models_uid').on('oidc_models').column('uid').execute();
  await db.schema.createIndex('oidc_models_expiry').on('oidc_models').column('expires_at').execute();
};
