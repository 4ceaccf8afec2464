/**
 * What one request of the OpenID Connect provider writes to its rows (store/identity/oidc-models.ts):
 * saves as one upsert, a code's or refresh token's consumption, deletions by key, and their
 * combinations in one statement on PostgreSQL or one unit of the group commit on SQLite
 * (services/identity/provider-writes.ts). Every statement a sign-in, token or refresh request runs is
 * compiled once for each number of rows it holds.
 */
import { type Kysely, type QueryCreator, sql } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import { dialectOf } from '../db.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/** A row as a save gives it. */
export interface StoredModel {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  accountId: string | null;
  /** The application the row belongs to, when it belongs to one. */
  clientId: string | null;
  /** A code's or token's provider session (`payload.sessionUid`). */
  sessionUid?: string | null;
  expiresAt: number;
}

const consumeQuery = compiledOnce(
  (db, now: number, model: string, id: string) =>
    db
      .updateTable('oidc_models')
      .set({ consumed_at: now })
      .where('model', '=', model)
      .where('id', '=', id)
      .where('consumed_at', 'is', null),
  [0, '', ''],
);

/** Marks a row consumed; answers false when it already was (another request consumed it first). */
export const consumeModel = async (db: Db, model: string, id: string, now: number) =>
  Number((await consumeQuery(db, now, model, id)).numAffectedRows ?? 0) > 0;

const destroyQuery = compiledOnce(
  (db, model: string, id: string) => db.deleteFrom('oidc_models').where('model', '=', model).where('id', '=', id),
  ['', ''],
);

export const destroyModel = (db: Db, model: string, id: string) => destroyQuery(db, model, id);

/**
 * The columns a save gives values for, in valuesOf's order (upsertInto writes consumed_at besides, as
 * null); a save of a row already there replaces all but its key and its consumption.
 */
const SAVED = [
  'model',
  'id',
  'payload',
  'grant_id',
  'uid',
  'user_code',
  'account_id',
  'client_id',
  'session_uid',
  'expires_at',
] as const;
const REPLACED = SAVED.slice(2);

const upsertInto = (db: QueryCreator<Database>, rows: StoredModel[]) =>
  db
    .insertInto('oidc_models')
    .values(
      rows.map((row) => ({
        model: row.model,
        id: row.id,
        payload: row.payload,
        grant_id: row.grantId,
        uid: row.uid,
        user_code: row.userCode,
        account_id: row.accountId,
        client_id: row.clientId,
        session_uid: row.sessionUid ?? null,
        // Written as it is, not a value: the compiled upserts below take ten values a row.
        consumed_at: sql<null>`null`,
        expires_at: row.expiresAt,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['model', 'id'])
        .doUpdateSet((eb) => Object.fromEntries(REPLACED.map((column) => [column, eb.ref(`excluded.${column}`)]))),
    );

/** A row's values in the order upsertInto writes its columns (the compiled upserts bind them so). */
const valuesOf = (row: StoredModel) => [
  row.model,
  row.id,
  row.payload,
  row.grantId,
  row.uid,
  row.userCode,
  row.accountId,
  row.clientId,
  row.sessionUid ?? null,
  row.expiresAt,
];
const VALUES_PER_ROW = 10;
/** What a compiled upsert is built from: its values are placeholders, bound at each run. */
const PLACEHOLDER_ROW: StoredModel = {
  model: '',
  id: '',
  payload: '',
  grantId: '',
  uid: '',
  userCode: '',
  accountId: '',
  clientId: '',
  sessionUid: '',
  expiresAt: 0,
};

/**
 * The upsert of a request's saves (one to four rows: a sign-in's session, grant and code), built and
 * compiled once for each number of rows, as every sign-in, token and refresh request writes one.
 */
const COMPILED_UPSERTS = 8;

/** A statement made once for each number of rows it is asked for (its callers bound the numbers). */
const perRowCount = <T>(make: (count: number) => T) => {
  const made = new Map<number, T>();
  return (count: number): T => {
    const found = made.get(count);
    if (found !== undefined) return found;
    const fresh = make(count);
    made.set(count, fresh);
    return fresh;
  };
};

const compiledUpsert = perRowCount((count: number) =>
  compiledOnce(
    (db, ..._bound: unknown[]) =>
      upsertInto(
        db,
        Array.from({ length: count }, () => PLACEHOLDER_ROW),
      ),
    Array.from({ length: count * VALUES_PER_ROW }, (): unknown => ''),
  ),
);

/**
 * Several rows in one statement (distinct model and id each): a request's writes
 * (services/identity/provider-writes.ts).
 */
export const upsertModels = async (db: Db, rows: StoredModel[]): Promise<void> => {
  if (rows.length > COMPILED_UPSERTS) {
    await upsertInto(db, rows).execute();
    return;
  }
  await compiledUpsert(rows.length)(db, ...rows.flatMap(valuesOf));
};

/** Whether writeModels writes these in one statement (atomic by itself, with no transaction around it). */
export const inOneStatement = (db: Db, deletions: unknown[], saves: unknown[]) =>
  (dialectOf(db) === 'postgres' && saves.length > 0) || deletions.length + (saves.length > 0 ? 1 : 0) === 1;

type ModelKey = { model: string; id: string };

/** PostgreSQL: the deletions in a data-modifying WITH, then the upsert of the saves, one statement. */
const deleteThenUpsert = (db: Db, deletions: ModelKey[], saves: StoredModel[]) =>
  upsertInto(
    db.with('gone', (qc) =>
      qc
        .deleteFrom('oidc_models')
        .where((eb) => eb.or(deletions.map(({ model, id }) => eb.and([eb('model', '=', model), eb('id', '=', id)])))),
    ),
    saves,
  );

/** Up to this many deletions beside the saves are compiled once (a resume deletes one interaction). */
const COMPILED_DELETIONS = 4;

/** By the number of deletions, then of saves. */
const compiledDeleteThenUpsert = perRowCount((deletions) =>
  perRowCount((saves) =>
    compiledOnce(
      (db, ..._bound: unknown[]) =>
        deleteThenUpsert(
          db,
          Array.from({ length: deletions }, () => ({ model: '', id: '' })),
          Array.from({ length: saves }, () => PLACEHOLDER_ROW),
        ),
      Array.from({ length: deletions * 2 + saves * VALUES_PER_ROW }, (): unknown => ''),
    ),
  ),
);

/**
 * A request's held deletions and saves (no row in both): on PostgreSQL one statement, the deletions in
 * a data-modifying WITH (resuming a sign-in deletes the interaction and saves the session, grant and
 * code), compiled once for each number of each (as the upserts are); on SQLite, whose WITH holds no
 * deletion, a statement per row deleted and one for the saves.
 */
export const writeModels = async (db: Db, deletions: ModelKey[], saves: StoredModel[]) => {
  if (dialectOf(db) === 'postgres' && deletions.length > 0 && saves.length > 0) {
    if (deletions.length > COMPILED_DELETIONS || saves.length > COMPILED_UPSERTS) {
      await deleteThenUpsert(db, deletions, saves).execute();
      return;
    }
    await compiledDeleteThenUpsert(deletions.length)(saves.length)(
      db,
      ...deletions.flatMap(({ model, id }) => [model, id]),
      ...saves.flatMap(valuesOf),
    );
    return;
  }
  for (const { model, id } of deletions) await destroyModel(db, model, id);
  if (saves.length > 0) await upsertModels(db, saves);
};

export const upsertModel = (db: Db, row: StoredModel) => upsertModels(db, [row]);

/**
 * On SQLite, as one unit of commit-group.ts (store/transaction.ts `inStoreUnit`): each consumption's
 * conditional update, then (only when each consumed its row) the deletions and the saves, run at
 * once. Answers the consumptions that consumed nothing (another request consumed the row first); the
 * caller's unit must then throw, which rolls it back.
 */
export const writeModelsNow = (
  db: Db,
  consumptions: Consumption[],
  deletions: ModelKey[],
  saves: StoredModel[],
): Consumption[] => {
  const refused = consumptions.filter(
    ({ model, id, at }) => consumeQuery.now(db, at, model, id).numAffectedRows === 0n,
  );
  if (refused.length > 0) return refused;
  for (const { model, id } of deletions) destroyQuery.now(db, model, id);
  for (let i = 0; i < saves.length; i += COMPILED_UPSERTS) {
    const some = saves.slice(i, i + COMPILED_UPSERTS);
    compiledUpsert(some.length).now(db, ...some.flatMap(valuesOf));
  }
  return [];
};

/** A code or refresh token consumed by the request that presents it (`at`: when). */
export interface Consumption {
  model: string;
  id: string;
  at: number;
}

/**
 * Whether consumeThenSave writes these: on PostgreSQL, one consumption, saves (none of the consumed
 * row) and no deletion, as the token endpoint writes them (a code or refresh token consumed; the
 * access and refresh tokens saved).
 */
export const consumesInOneStatement = (
  db: Db,
  consumptions: Consumption[],
  deletions: unknown[],
  saves: StoredModel[],
) => {
  const [only] = consumptions;
  return (
    dialectOf(db) === 'postgres' &&
    only !== undefined &&
    consumptions.length === 1 &&
    deletions.length === 0 &&
    saves.length > 0 &&
    saves.every((row) => row.model !== only.model || row.id !== only.id)
  );
};

const EXPIRES_AT = SAVED.indexOf('expires_at');

/**
 * The consumption as the conditional update of a data-modifying WITH, and the saves inserted only
 * from the row it returns (none when another request consumed the row first); answers how many rows
 * it consumed. The VALUES list's expiry is cast: its placeholders would otherwise be read as text.
 */
const consumeThenSaveStatement = (at: number, model: string, id: string, rows: StoredModel[]) => {
  const columns = sql.join(SAVED.map((column) => sql.ref(column)));
  const values = sql.join(
    rows.map((row) => {
      const placed = valuesOf(row).map((value, i) =>
        i === EXPIRES_AT ? sql`cast(${value} as bigint)` : sql`${value}`,
      );
      return sql`(${sql.join(placed)})`;
    }),
  );
  const replaced = sql.join(REPLACED.map((column) => sql`${sql.ref(column)} = excluded.${sql.ref(column)}`));
  return sql<{ consumed: string }>`with consumed as (
    update oidc_models set consumed_at = ${at}
    where model = ${model} and id = ${id} and consumed_at is null
    returning id
  ), saved as (
    insert into oidc_models (${columns})
    select v.* from consumed, (values ${values}) as v(${columns})
    on conflict (model, id) do update set ${replaced}
  )
  select count(*) as consumed from consumed`;
};

/** Compiled once for each number of saves up to eight, as the upserts are. */
const compiledConsumeThenSave = perRowCount((count: number) =>
  compiledOnce(
    (db, at: number, model: string, id: string, ..._bound: unknown[]) => ({
      compile: () =>
        consumeThenSaveStatement(
          at,
          model,
          id,
          Array.from({ length: count }, () => PLACEHOLDER_ROW),
        ).compile(db),
    }),
    [0, '', '', ...Array.from({ length: count * VALUES_PER_ROW }, (): unknown => '')],
  ),
);

/**
 * A code or refresh token consumed and the request's saves written only if it was, in one statement
 * (`consumesInOneStatement`): one round trip where BEGIN, the conditional update, the upsert and
 * COMMIT made four. Answers whether this call consumed the row; when it did not, nothing was saved.
 */
export const consumeThenSave = async (db: Db, { model, id, at }: Consumption, rows: StoredModel[]) => {
  if (rows.length > COMPILED_UPSERTS) {
    const { rows: answer } = await consumeThenSaveStatement(at, model, id, rows).execute(db);
    return Number(answer[0]?.consumed ?? 0) > 0;
  }
  const { rows: answer } = await compiledConsumeThenSave(rows.length)(db, at, model, id, ...rows.flatMap(valuesOf));
  return Number(answer[0]?.consumed ?? 0) > 0;
};
