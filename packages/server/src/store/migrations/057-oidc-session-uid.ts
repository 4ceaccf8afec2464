import type { Kysely } from 'kysely';

/**
 * The provider session a code or token was issued in (`payload.sessionUid`) as a column of its own, so
 * the token endpoint and userinfo read the token, its grant and its session in one statement
 * (store/identity/oidc-models.ts `findTokenWithGrantAndSession`). Rows saved before have none and are
 * read as before, one by one, until they expire.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('oidc_models').addColumn('session_uid', 'text').execute();
};
