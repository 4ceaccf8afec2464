import type { Kysely } from 'kysely';

/**
 * A provider session is looked up by its uid with its model (`model = 'Session' and uid = …`: the
 * adapter's findByUid, and the token endpoint's and userinfo's read of a token with its session). The
 * index of the uid alone left PostgreSQL, before it had statistics of the table (a new deployment, or
 * one autovacuum has not analysed since it grew), joining it to the primary key's `model = 'Session'`:
 * a walk over every session at each token request. One index of both answers the lookup alone.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.createIndex('oidc_models_uid_model').on('oidc_models').columns(['uid', 'model']).execute();
  await db.schema.dropIndex('oidc_models_uid').execute();
};
