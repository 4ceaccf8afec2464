import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Login cards that end when the pupil takes the account (services/edu/school/pupil-cards.ts):
 * - `schools.cards_keep_working`: 1 when the school's admin chose that a pupil's own password change
 *   leaves the school's printed cards working; 0 (the default) ends them with the change;
 * - `sign_in_badges.class_id`: the class the card was printed for, shown to the pupil beside when it
 *   was printed (null for cards printed before).
 */
export const up = async (db: Kysely<unknown>, _context: MigrationContext): Promise<void> => {
  await db.schema
    .alterTable('schools')
    .addColumn('cards_keep_working', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sign_in_badges').addColumn('class_id', 'bigint').execute();
};
