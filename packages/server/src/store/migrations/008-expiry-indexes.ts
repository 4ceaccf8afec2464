import type { Kysely } from 'kysely';

/**
 * Indexes for the hourly sweep of expired account rows (services/platform/housekeeping.ts), so it reads only
 * what it deletes instead of scanning tables that grow with every refresh and sign-in.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.createIndex('refresh_tokens_expires').on('refresh_tokens').column('expires_at').execute();
  await db.schema.createIndex('tickets_expires').on('tickets').column('expires_at').execute();
  await db.schema
    .createIndex('sessions_revoked')
    .on('sessions')
    .column('revoked_at')
    // Live sessions (most of them) need no entry.
    .where('revoked_at', 'is not', null)
    .execute();
  await db.schema.createIndex('outbox_sent').on('outbox').column('sent_at').execute();
};
