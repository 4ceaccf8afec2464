import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Lookups a year of data keeps fast: each finds its rows through an index proportional to its answer.
 * - `webhook_events.user_id`: the account an event is about (erasure takes the person's events by it,
 *   not by reading every payload); `webhook_deliveries` by event, for the same erasure.
 * - `oidc_models.client_id`: the application a grant, token or code belongs to (removing an application
 *   takes its rows by it).
 * - usage events by user (erasure and a person's data export); audit rows by target (a person's export),
 *   by action and by operator (the console's filters), each newest first.
 * - Erasure's other lookups: tickets by subject, school sign-ins by account, consents by guardian.
 * - The console's user search (store/admin/admin.ts): on PostgreSQL prefix indexes (`text_pattern_ops`) on phone, e-mail, username and nickname, and, where
 *   the `pg_trgm` extension can be created, trigram indexes for fragments inside them. Without it the
 *   search still answers, scanning for fragments (docs/operators.md).
 */
export const up = async (db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> => {
  await db.schema.alterTable('webhook_events').addColumn('user_id', 'bigint').execute();
  await db.schema.alterTable('oidc_models').addColumn('client_id', 'text').execute();
  if (dialect === 'postgres') {
    await sql`UPDATE webhook_events SET user_id = (payload::jsonb #>> '{data,user_id}')::bigint`.execute(db);
    await sql`UPDATE oidc_models SET client_id = payload::jsonb ->> 'clientId'`.execute(db);
  } else {
    await sql`UPDATE webhook_events SET user_id = json_extract(payload, '$.data.user_id')`.execute(db);
    await sql`UPDATE oidc_models SET client_id = json_extract(payload, '$.clientId')`.execute(db);
  }
  await db.schema.createIndex('webhook_events_user').on('webhook_events').column('user_id').execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
  await db.schema.createIndex('oidc_models_client').on('oidc_models').column('client_id').execute();
  await db.schema.createIndex('usage_events_user').on('usage_events').column('user_id').execute();
  for (const column of ['target', 'action', 'operator_id']) {
    await db.schema.createIndex(`admin_audit_${column}`).on('admin_audit').columns([column, 'id']).execute();
  }
  await db.schema.createIndex('tickets_subject').on('tickets').column('subject').execute();
  await db.schema.createIndex('school_sign_ins_user').on('school_sign_ins').column('user_id').execute();
  await db.schema.createIndex('guardian_consents_guardian').on('guardian_consents').column('guardian_id').execute();
  if (dialect === 'postgres') await searchIndexes(db);
};

/** The users' columns the console's search looks in (store/admin/admin.ts). */
export const SEARCHED = ['phone', 'email', 'username_key', 'nickname'] as const;

const searchIndexes = async (db: Kysely<unknown>) => {
  for (const column of SEARCHED) {
    await sql`CREATE INDEX ${sql.id(`users_${column}_prefix`)} ON users (${sql.ref(column)} text_pattern_ops)`.execute(
      db,
    );
  }
  // Creating an extension may be refused to the database's user: the search then scans for fragments.
  await sql`SAVEPOINT trigram`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  } catch {
    await sql`ROLLBACK TO SAVEPOINT trigram`.execute(db);
    return;
  }
  for (const column of SEARCHED) {
    await sql`CREATE INDEX ${sql.id(`users_${column}_trigrams`)} ON users USING gin (${sql.ref(column)} gin_trgm_ops)`.execute(
      db,
    );
  }
};
