import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Schools' own sign-in systems. `school_connectors`: one upstream system an operator configured for a
 * school (its kind, a short code used in addresses, its settings and attribute mapping as JSON), so a
 * new school needs no code. `school_identities`: which account a school identity signed in as; the
 * identity is kept only as an HMAC of (connector, subject), never the student number in clear.
 * `school_sign_ins`: the upstream ticket (hashed) a session started from, so the school system's
 * single logout can end that session.
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await id(db.schema.createTable('school_connectors'))
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('school_identities')
    .addColumn('connector_id', 'bigint', (c) => c.notNull())
    .addColumn('subject_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('school_identities_pk', ['connector_id', 'subject_hash'])
    .execute();
  await db.schema.createIndex('school_identities_user').on('school_identities').column('user_id').execute();
  await db.schema
    .createTable('school_sign_ins')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('connector_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('session_key', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('school_sign_ins_created').on('school_sign_ins').column('created_at').execute();
};
