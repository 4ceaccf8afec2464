import type { Kysely } from 'kysely';

/**
 * `school_members.display_name`: the name a teacher gives the school when asking to teach ("王老师",
 * or their real name), so a pupil's and a guardian's "who read my record" names the teacher as the
 * school knows them instead of a drawn nickname (services/account/record-reads.ts). Null: none given.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('school_members').addColumn('display_name', 'text').execute();
};
