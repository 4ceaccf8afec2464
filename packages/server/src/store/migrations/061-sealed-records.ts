import type { Kysely } from 'kysely';

/**
 * Children's records sealed at rest (store/sealed-records.ts): the blind indexes of users' phones and
 * e-mail addresses, unique like the columns themselves. A sealed value is different each time it is
 * sealed, so sign-in, uniqueness and exact search find it by its index; a value written before this
 * migration is found by the column until the start that seals in place writes its index.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('users').addColumn('phone_index', 'text').execute();
  await db.schema.alterTable('users').addColumn('email_index', 'text').execute();
  await db.schema.createIndex('users_phone_index').on('users').column('phone_index').unique().execute();
  await db.schema.createIndex('users_email_index').on('users').column('email_index').unique().execute();
};
