import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Age and guardian consent (docs/education.md, "Children and guardians"):
 * - `users.birth_year_month` (`YYYY-MM`, what the person answered at sign-up; never an ID number),
 *   `users.age_band` (the band at sign-up, or the class's for a pupil a teacher created) and
 *   `users.consent_state` (null: no guardian consent needed; `pending`, `granted`, `school`, `withdrawn`);
 * - `guardian_consents`: every decision on a child's consent as a record (child, guardian, method,
 *   the text's version, scopes, decision, time), kept when the child's account is deleted;
 * - `guardians`: guardian accounts linked to children, with the relation.
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema.alterTable('users').addColumn('birth_year_month', 'text').execute();
  await db.schema.alterTable('users').addColumn('age_band', 'text').execute();
  await db.schema.alterTable('users').addColumn('consent_state', 'text').execute();
  await db.schema.createIndex('users_consent_state').on('users').columns(['consent_state', 'created_at']).execute();
  await id(db.schema.createTable('guardian_consents'))
    .addColumn('child_id', 'bigint', (c) => c.notNull())
    .addColumn('guardian_id', 'bigint')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('text_version', 'integer', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('guardian_consents_child')
    .on('guardian_consents')
    .columns(['child_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('guardians')
    .addColumn('child_id', 'bigint', (c) => c.notNull())
    .addColumn('guardian_id', 'bigint', (c) => c.notNull())
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('guardians_pk', ['child_id', 'guardian_id'])
    .execute();
  await db.schema.createIndex('guardians_guardian').on('guardians').columns(['guardian_id']).execute();
};
