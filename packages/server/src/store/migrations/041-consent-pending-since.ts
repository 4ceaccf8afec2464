import type { Kysely } from 'kysely';

/**
 * Since when a child's account has waited for a guardian's consent, where that is not the day it was
 * made: a school-managed pupil whose class's grade was corrected to one under 14 starts to wait then
 * (services/edu/school/classes.ts), and the sweep that deletes accounts left pending for
 * EDU_CONSENT_PENDING_DAYS counts from this time (from `created_at` when null).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('users').addColumn('consent_pending_since', 'bigint').execute();
};
