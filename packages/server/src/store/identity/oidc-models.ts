/**
 * What the OpenID Connect provider keeps between requests (its adapter's storage): one row per model
 * and id, the payload as JSON, with the indexes the provider looks up by (grant, session uid, user code).
 * Here its reads, revocations and sweep; what a request writes is oidc-writes.ts.
 */
import { type Kysely, sql } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import { SWEEP_BATCH as BATCH, inBatches } from '../in-batches.ts';
import type { Database } from '../schema.ts';
import { destroyModel } from './oidc-writes.ts';

type Db = Kysely<Database>;

type Lookup = { column: 'id' | 'uid' | 'user_code'; value: string };

/** The live row of a model by id, session uid or user code. */
export const findModel = (db: Db, model: string, { column, value }: Lookup, now: number) =>
  db
    .selectFrom('oidc_models')
    .select(['payload', 'consumed_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/**
 * A code's or token's live row by id and, in the same statement, the live rows the provider reads
 * next: its grant (by `grant_id`) and its provider session (by `session_uid`). One statement where
 * the token endpoint and userinfo made three; built and compiled once (every token, refresh and
 * userinfo request runs it), so the model and id are given once for each place they take.
 */
const tokenWithGrantAndSessionQuery = compiledOnce(
  (
    db,
    now: number,
    model: string,
    id: string,
    grantOf: string,
    grantOfId: string,
    sessionOf: string,
    sessionOfId: string,
  ) => {
    const of = (column: 'grant_id' | 'session_uid', ofModel: string, ofId: string) =>
      db.selectFrom('oidc_models as t').select(`t.${column}`).where('t.model', '=', ofModel).where('t.id', '=', ofId);
    return db
      .selectFrom('oidc_models')
      .select(['model', 'id', 'uid', 'payload', 'consumed_at'])
      .where('expires_at', '>', now)
      .where((eb) =>
        eb.or([
          eb.and([eb('model', '=', model), eb('id', '=', id)]),
          eb.and([eb('model', '=', sql.lit('Grant')), eb('id', '=', of('grant_id', grantOf, grantOfId))]),
          eb.and([eb('model', '=', sql.lit('Session')), eb('uid', '=', of('session_uid', sessionOf, sessionOfId))]),
        ]),
      );
  },
  [0, '', '', '', '', '', ''],
);

export const findTokenWithGrantAndSession = async (db: Db, model: string, id: string, now: number) =>
  (await tokenWithGrantAndSessionQuery(db, now, model, id, model, id, model, id)).rows;

/** The live rows of one model belonging to an account. */
export const findModelsOfAccount = (db: Db, model: string, accountId: string, now: number) =>
  db
    .selectFrom('oidc_models')
    .select(['id', 'payload'])
    .where('account_id', '=', accountId)
    .where('model', '=', model)
    .where('expires_at', '>', now)
    .execute();

export const destroyModelByUid = (db: Db, model: string, uid: string) =>
  db.deleteFrom('oidc_models').where('model', '=', model).where('uid', '=', uid).execute();

export const revokeModelsOfGrant = (db: Db, grantId: string) =>
  db.deleteFrom('oidc_models').where('grant_id', '=', grantId).execute();

/** The grant a row was issued under (null: none, or no such row). */
export const grantIdOf = async (db: Db, model: string, id: string) =>
  (
    await db
      .selectFrom('oidc_models')
      .select('grant_id')
      .where('model', '=', model)
      .where('id', '=', id)
      .executeTakeFirst()
  )?.grant_id ?? null;

/** A grant and everything issued under it (codes, access and refresh tokens). */
export const revokeGrant = async (db: Db, grantId: string) => {
  await revokeModelsOfGrant(db, grantId);
  await destroyModel(db, 'Grant', grantId);
};

/** Rows past their expiry, through the index `oidc_models_expiry`. */
export const expiredModelsQuery = (db: Db, now: number) =>
  db.selectFrom('oidc_models').select(['model', 'id']).where('expires_at', '<=', now).limit(BATCH);

/** The hourly sweep: rows past their expiry, in batches; answers how many. */
export const deleteExpiredModels = (db: Db, now: number) =>
  inBatches(BATCH, () =>
    db
      .deleteFrom('oidc_models')
      .where(({ eb, refTuple }) =>
        eb(refTuple('model', 'id'), 'in', expiredModelsQuery(db, now).$asTuple('model', 'id')),
      )
      .executeTakeFirst(),
  );
