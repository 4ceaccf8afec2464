import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * SAML sign-in through a federation (CARSI). `saml_metadata`: the last good copy of each federation's
 * signed metadata aggregate (shared by every school connector naming the same address), and when it
 * was last fetched or tried, so a failed refresh keeps the copy. `saml_requests`: each AuthnRequest
 * sent, taken once by the response that answers it. `saml_assertions`: the assertions accepted, kept
 * until they expire, so one cannot be presented twice.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('saml_metadata')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('fetched_at', ms, (c) => c.notNull())
    .addColumn('tried_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('saml_requests')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('connector_id', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_requests_expires').on('saml_requests').column('expires_at').execute();
  await db.schema
    .createTable('saml_assertions')
    .addColumn('assertion_key', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_assertions_expires').on('saml_assertions').column('expires_at').execute();
};
