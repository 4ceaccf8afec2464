import { type Kysely, sql } from 'kysely';

/**
 * The provider's rows are indexed by what they are looked up by — a code's or token's grant, a
 * session's uid, an account's sessions and grants, an application's rows — and most rows have no
 * value in most of those columns: an interaction has no grant (until its consent), account or
 * application, a grant no uid, a session no grant and no application. Each row still had an entry in
 * all four indexes, and each of a sign-in's writes (the interaction saved twice then deleted, the
 * grant, the session, the code, the token) paid for the pages of all four. Each index now holds only
 * the rows with a value (`… IS NOT NULL`): every lookup is by a value (`=`), which both databases
 * take as within the index (store/identity/oidc-models.test.ts, store/indexed-paths.test.ts).
 */
const PARTIAL: [name: string, columns: string[]][] = [
  ['oidc_models_grant', ['grant_id']],
  ['oidc_models_uid_model', ['uid', 'model']],
  ['oidc_models_account', ['account_id', 'model']],
  ['oidc_models_client', ['client_id']],
];

export const up = async (db: Kysely<unknown>): Promise<void> => {
  for (const [name, columns] of PARTIAL) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('oidc_models')
      .columns(columns)
      .where(sql.ref(columns[0] as string), 'is not', null)
      .execute();
  }
};
