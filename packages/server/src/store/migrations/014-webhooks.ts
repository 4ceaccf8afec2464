import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Webhooks. `webhook_events` is the outbox: a change and its event are written in one transaction,
 * with one `webhook_deliveries` row per subscribed endpoint. A worker in each server process claims
 * due deliveries under a lease (`lease_until`), so one attempt stream runs per delivery however many
 * processes share the database; each attempt is logged in `webhook_attempts` (kept 30 days).
 */
export const up = async (db: Kysely<unknown>, context: MigrationContext): Promise<void> => {
  const { ms } = context;
  await context
    .id(db.schema.createTable('webhook_endpoints'))
    .addColumn('pid', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failing_since', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_pid').on('webhook_endpoints').column('pid').execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('pid', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_events_created_at').on('webhook_events').column('created_at').execute();

  await context
    .id(db.schema.createTable('webhook_deliveries'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ms, (c) => c.notNull())
    .addColumn('give_up_at', ms, (c) => c.notNull())
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_created_at').on('webhook_deliveries').column('created_at').execute();

  await context
    .id(db.schema.createTable('webhook_attempts'))
    .addColumn('delivery_id', 'bigint', (c) => c.notNull())
    .addColumn('at', ms, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('response_status', 'integer', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'id'])
    .execute();
  await db.schema.createIndex('webhook_attempts_at').on('webhook_attempts').column('at').execute();
};
