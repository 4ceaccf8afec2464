import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Back-channel logouts (OpenID Connect Back-Channel Logout 1.0) waiting to be posted: written in the
 * transaction that ended the sessions, claimed by a worker under a lease (`lease_until`) as webhook
 * deliveries are, retried with back-off until `give_up_at`, deleted once the application answered.
 */
export const up = async (db: Kysely<unknown>, context: MigrationContext): Promise<void> => {
  const { ms } = context;
  await context
    .id(db.schema.createTable('backchannel_logouts'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('sid', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ms, (c) => c.notNull())
    .addColumn('give_up_at', ms, (c) => c.notNull())
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backchannel_logouts_due').on('backchannel_logouts').column('next_attempt_at').execute();
  // One logout per sign-in: the provider's own (signing out through an application) and EduPass's
  // (the session it stood on ended) may both name it.
  await db.schema
    .createIndex('backchannel_logouts_sign_in')
    .on('backchannel_logouts')
    .columns(['client_id', 'sid'])
    .unique()
    .execute();
};
