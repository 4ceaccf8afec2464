import type { Kysely } from 'kysely';

/**
 * An application's "discloses to others" flag (services/edu/family/disclosure.ts): 1 when the product
 * passes what it receives on to others beyond what its service needs. A child's data reaches such a
 * product only after a guardian consented by the stronger method, after the real-name adult check.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('applications')
    .addColumn('discloses_to_others', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
};
