/**
 * The provider's writes of one request in one transaction. The OpenID Connect provider saves each of
 * its models as it goes (resuming a sign-in saves the session and the code and deletes the
 * interaction; the token endpoint saves the access and the refresh token), and each save was its own
 * commit, each waiting for PostgreSQL's WAL to reach the disk: 13 commits per sign-in
 * (oidc/statements-per-sign-in.test.ts). Within a request (`providerRequest`), the saves and
 * deletions are held and written together by `flush`, in one transaction and one statement per kind
 * (or that one statement alone, when it is one; on SQLite, one unit of the commit other requests'
 * writes share at that moment: store/commit-group.ts), before the answer leaves (oidc/mount.ts holds the
 * answer's end until then; a write that fails answers 503 rather than a success whose rows are
 * missing).
 *
 * Nothing reads differently: a lookup that a held write could answer (the same model and id, a
 * session's uid; by uid or user code, any row of a model with a deletion held) writes what is held
 * first, and so does consuming a held row or revoking a grant. Consuming a code or a refresh token is
 * held too, and runs first in the transaction as the conditional update that detects one used twice:
 * when another request consumed it first, nothing of this request is written (the tokens it would have
 * issued included), the grant is revoked, and the answer is the provider's `invalid_grant`
 * (oidc/mount.ts), as when the provider itself sees the row consumed. Outside a request (workers,
 * sweeps, the CLI) each write is immediate.
 *
 * Rows read ahead: reading a code or token, the adapter reads its grant and provider session in the
 * same statement (store/identity/oidc-models.ts `findTokenWithGrantAndSession`) and keeps them for
 * the rest of the request (`readAhead`), where the provider's next reads of them find them
 * (`readAheadRow`). A save or deletion of one of those rows in the request, or a grant's revocation,
 * forgets them, so the request never reads back an older row than it wrote.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import { grantIdOf, revokeGrant } from '../../store/identity/oidc-models.ts';
import {
  type Consumption,
  consumeModel,
  consumesInOneStatement,
  consumeThenSave,
  destroyModel,
  inOneStatement,
  type StoredModel,
  upsertModels,
  writeModels,
  writeModelsNow,
} from '../../store/identity/oidc-writes.ts';
import type { Database } from '../../store/schema.ts';
import { inStoreUnit } from '../../store/transaction.ts';

type Db = Kysely<Database>;

interface Held {
  saves: Map<string, StoredModel>;
  deletions: Map<string, { model: string; id: string }>;
  /** Codes and refresh tokens consumed, each by a conditional update first in the transaction. */
  consumptions: Map<string, Consumption>;
  /** Rows read ahead, by model, column and value. */
  readAhead: Map<string, ReadAheadRow>;
}

export interface ReadAheadRow {
  payload: string;
  consumed_at: number | null;
}

/** A code or refresh token another request consumed first: nothing of this request was written. */
export class ConsumedTwice extends Error {}

/**
 * A code or refresh token presented twice is a replay, as the provider treats one it sees consumed:
 * the grant it was issued under is revoked, with every token issued under that grant.
 */
export const revokeReplayed = async (db: Db, model: string, id: string) => {
  const grantId = await grantIdOf(db, model, id);
  if (grantId !== null) await revokeGrant(db, grantId);
};

const held = new AsyncLocalStorage<Held>();
const keyOf = (model: string, id: string) => `${model}\u0000${id}`;

/**
 * Writes what is held, in one transaction; nothing when nothing is. A consumption refused (another
 * request consumed the row first) rolls it all back, revokes the grant and throws ConsumedTwice.
 */
const write = async (db: Db, writes: Held) => {
  if (writes.saves.size === 0 && writes.deletions.size === 0 && writes.consumptions.size === 0) return;
  const saves = [...writes.saves.values()];
  const deletions = [...writes.deletions.values()];
  const consumptions = [...writes.consumptions.values()];
  writes.saves.clear();
  writes.deletions.clear();
  writes.consumptions.clear();
  // One statement is atomic by itself: no BEGIN and COMMIT around it (two round trips on PostgreSQL,
  // and on SQLite it may share a commit with other requests' writes: store/commit-group.ts).
  if (consumptions.length === 0 && inOneStatement(db, deletions, saves)) {
    await writeModels(db, deletions, saves);
    return;
  }
  const refused: Consumption[] = [];
  try {
    // The token endpoint's writes (a code or refresh token consumed, tokens saved) on PostgreSQL: the
    // consumption and the saves in one statement, which saves nothing when it consumes nothing.
    const [only] = consumptions;
    if (only !== undefined && consumesInOneStatement(db, consumptions, deletions, saves)) {
      if (!(await consumeThenSave(db, only, saves))) refused.push(only);
    } else {
      await inStoreUnit(
        db,
        // On SQLite, run again alone when its group could not commit: what is refused is its last run's.
        () => {
          refused.splice(0, refused.length, ...writeModelsNow(db, consumptions, deletions, saves));
          if (refused.length > 0) throw new ConsumedTwice('grant already consumed');
        },
        async (tx) => {
          for (const c of consumptions) if (!(await consumeModel(tx, c.model, c.id, c.at))) refused.push(c);
          if (refused.length > 0) throw new ConsumedTwice('grant already consumed');
          await writeModels(tx, deletions, saves);
        },
      );
    }
    if (refused.length > 0) throw new ConsumedTwice('grant already consumed');
  } catch (error) {
    if (error instanceof ConsumedTwice) for (const { model, id } of refused) await revokeReplayed(db, model, id);
    throw error;
  }
};

/** One request's scope: `run` its handling in it, then `flush` before its answer leaves. */
export const providerRequest = (db: Db) => {
  const writes: Held = { saves: new Map(), deletions: new Map(), consumptions: new Map(), readAhead: new Map() };
  return {
    run: <T>(work: () => T): T => held.run(writes, work),
    flush: () => write(db, writes),
  };
};

/** Saves a row now, or holds it for the request's transaction. */
export const saveModel = async (db: Db, row: StoredModel): Promise<void> => {
  const writes = held.getStore();
  if (writes === undefined) {
    await upsertModels(db, [row]);
    return;
  }
  const key = keyOf(row.model, row.id);
  writes.readAhead.delete(aheadKey(row.model, 'id', row.id));
  if (row.uid !== null) writes.readAhead.delete(aheadKey(row.model, 'uid', row.uid));
  writes.deletions.delete(key);
  writes.saves.set(key, row);
};

/** Deletes a row now, or holds the deletion for the request's transaction. */
export const deleteModel = async (db: Db, model: string, id: string): Promise<void> => {
  const writes = held.getStore();
  if (writes === undefined) {
    await destroyModel(db, model, id);
    return;
  }
  const key = keyOf(model, id);
  forgetReadAhead(writes, model);
  writes.saves.delete(key);
  writes.deletions.set(key, { model, id });
};

/**
 * Holds the consumption of a row for the request's transaction, where it runs first (true); false
 * outside a request, where the caller consumes it now.
 */
export const holdConsumption = (model: string, id: string, at: number): boolean => {
  const writes = held.getStore();
  if (writes === undefined) return false;
  writes.consumptions.set(keyOf(model, id), { model, id, at });
  return true;
};

type Lookup = { column: 'id' | 'uid' | 'user_code'; value: string };

const aheadKey = (model: string, column: Lookup['column'], value: string) => `${model}\u0000${column}\u0000${value}`;

/** Forgets the rows read ahead of `model` (every model when none is named). */
const forgetReadAhead = (writes: Held, model?: string) => {
  if (model === undefined) writes.readAhead.clear();
  else for (const key of writes.readAhead.keys()) if (key.startsWith(`${model}\u0000`)) writes.readAhead.delete(key);
};

/** Keeps a row read ahead for the rest of the request (nothing outside one). */
export const readAhead = (model: string, lookup: Lookup, row: ReadAheadRow) => {
  held.getStore()?.readAhead.set(aheadKey(model, lookup.column, lookup.value), row);
};

/** The row of `model` by `lookup` read ahead in this request, unless a write of it was held since. */
export const readAheadRow = (model: string, lookup: Lookup): ReadAheadRow | undefined => {
  const writes = held.getStore();
  if (writes === undefined || couldAnswer(writes, model, lookup)) return undefined;
  return writes.readAhead.get(aheadKey(model, lookup.column, lookup.value));
};

/** A grant's codes and tokens revoked in the request: what was read ahead may be gone. */
export const forgetAllReadAhead = () => {
  const writes = held.getStore();
  if (writes !== undefined) forgetReadAhead(writes);
};

const couldAnswer = (writes: Held, model: string, { column, value }: Lookup) => {
  if (column === 'id') {
    const key = keyOf(model, value);
    return writes.saves.has(key) || writes.deletions.has(key) || writes.consumptions.has(key);
  }
  // A held deletion's row is not known by its uid or user code: any of the model's could be the one.
  if ([...writes.deletions.values()].some((deletion) => deletion.model === model)) return true;
  const field = column === 'uid' ? 'uid' : 'userCode';
  return [...writes.saves.values()].some((row) => row.model === model && row[field] === value);
};

/**
 * Before a read, a consumption or a revocation of `model` (by `lookup`; every held write when no
 * model is named): writes what is held that it could see, so it sees the database as if nothing were held.
 */
export const writeHeldBefore = async (db: Db, model?: string, lookup?: Lookup): Promise<void> => {
  const writes = held.getStore();
  if (writes === undefined) return;
  if (model === undefined || lookup === undefined || couldAnswer(writes, model, lookup)) {
    await write(db, writes);
  }
};
