import type { Kysely } from 'kysely';

/**
 * The third-party applications a school's agreement covers (services/edu/family/school-agreements.ts):
 * `school_agreements.applications`, a JSON array of their client ids, `[]` for the agreements recorded
 * before (they cover the operator's own products only). While the agreement stands, such an
 * application receives of a pupil under it what the operator's products do (docs/education.md, "What
 * applications receive, by consent state").
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('school_agreements')
    .addColumn('applications', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
};
