import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * One pupil, one account. `school_person_keys`: a school's identifier of a person (the roster's 学号 or
 * sourcedId, the CAS user, a SAML attribute, an OpenID Connect subject) as one key per school, an HMAC
 * of the school and the identifier (services/edu/school/person-keys.ts), so every source of the same
 * school lands on the same account. The identities school connectors linked (`school_identities`,
 * keyed per connector) move into it under their school, their hash as it was: a sign-in that finds a
 * person by that older hash writes the school's key in its place (services/edu/federation/sign-in.ts).
 *
 * Classes: a class's name is unique in its school and school year. Classes that already share one keep
 * it on the first made and take their id after it on the others (`三年级二班（12）`), so the unique index
 * can hold.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('school_person_keys')
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('school_person_keys_pk', ['school_id', 'key_hash'])
    .execute();
  await db.schema.createIndex('school_person_keys_user').on('school_person_keys').column('user_id').execute();
  await sql`
    INSERT INTO school_person_keys (school_id, key_hash, user_id, source, created_at)
    SELECT c.school_id, i.subject_hash, i.user_id, c.kind, i.created_at
    FROM school_identities i JOIN school_connectors c ON c.id = i.connector_id`.execute(db);
  await db.schema.dropTable('school_identities').execute();

  await sql`
    UPDATE classes SET name = name || '（' || CAST(id AS TEXT) || '）'
    WHERE EXISTS (
      SELECT 1 FROM classes AS first
      WHERE first.school_id = classes.school_id AND first.school_year = classes.school_year
        AND first.name = classes.name AND first.id < classes.id
    )`.execute(db);
  await db.schema
    .createIndex('classes_school_year_name')
    .on('classes')
    .columns(['school_id', 'school_year', 'name'])
    .unique()
    .execute();
};
