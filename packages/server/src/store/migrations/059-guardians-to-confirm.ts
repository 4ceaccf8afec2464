import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * A school admin's "guardians to confirm" (services/edu/family/school-invites.ts): the school's
 * invites still waiting, paged by (school, id) through an index that holds only the waiting ones, and
 * when the school last sent the invitation by SMS with how many it sent that day (China Standard Time),
 * so a resend is allowed once per interval and a few a day, by one conditional update.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema.alterTable('guardian_invites').addColumn('invited_at', ms).execute();
  await db.schema.alterTable('guardian_invites').addColumn('invite_day', 'integer').execute();
  await db.schema
    .alterTable('guardian_invites')
    .addColumn('invites_that_day', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('guardian_invites_school_waiting')
    .on('guardian_invites')
    .columns(['school_id', 'id'])
    .where(sql.ref('confirmed_at'), 'is', null)
    .execute();
};
