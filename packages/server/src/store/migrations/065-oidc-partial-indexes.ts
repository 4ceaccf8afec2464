import { type Kysely, sql } from 'kysely';

/**
 * The provider's rows are indexed by what they are looked up by — a code's or token's grant, a
 * session's uid, an account's sessions and grants, an application's rows — and most rows have no
 * value in most of those columns: an interaction has neither grant (until its consent), account nor
 * application, a grant no uid, a session no grant and no application. Each row written still wrote an
 * entry in every index, and every one of a sign-in's writes (the interaction saved three times, the
 * grant, the session, the code, the token) paid for the pages of all five. Each index now holds only
 * the rows with a value (`… IS NOT NULL`): every lookup is by a value, which both databases read as
 * within the index.
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
