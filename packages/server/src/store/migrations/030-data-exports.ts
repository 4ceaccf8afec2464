import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * A copy of a person's data (services/account/data-export.ts): one row per export asked for, whose
 * data (`user_id`), who asked (`requested_by` user, guardian or operator, and `requester_id`), in which
 * language; `queued` rows are built by a worker under a lease as webhook deliveries are, so an export
 * survives a restart. The zip is kept in `file` until its single-use link is used or expires; the
 * link's secret is kept sealed (shown again to whoever asked) and hashed (how a download finds it).
 *
 * Security events about an account (`security_events`): what the log pipeline hears, also kept per
 * account for the person's copy of their data, for SECURITY_EVENT_RETENTION_DAYS.
 *
 * Guardians' consent decisions outlive the child's account as evidence: `account_ended_at` is when it
 * was erased, and the sweep removes them CONSENT_EVIDENCE_RETENTION_YEARS after.
 */
export const up = async (db: Kysely<unknown>, context: MigrationContext): Promise<void> => {
  const { ms, dialect } = context;
  await context
    .id(db.schema.createTable('data_exports'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requester_id', 'integer', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', ms)
    .addColumn('link_hash', 'text', (c) => c.unique())
    .addColumn('link_sealed', 'text')
    .addColumn('link_expires_at', ms)
    .addColumn('file', dialect === 'postgres' ? 'bytea' : 'blob')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('finished_at', ms)
    .execute();
  await db.schema.createIndex('data_exports_state').on('data_exports').columns(['state', 'id']).execute();
  await db.schema.createIndex('data_exports_user').on('data_exports').column('user_id').execute();
  await db.schema.createIndex('data_exports_requester').on('data_exports').column('requester_id').execute();

  await context
    .id(db.schema.createTable('security_events'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('security_events_user').on('security_events').column('user_id').execute();
  await db.schema.createIndex('security_events_at').on('security_events').column('at').execute();

  await db.schema.alterTable('guardian_consents').addColumn('account_ended_at', ms).execute();
  await db.schema
    .createIndex('guardian_consents_account_ended')
    .on('guardian_consents')
    .column('account_ended_at')
    .execute();
};
