/**
 * Queries on a hot path, built and compiled through Kysely once per database handle (and once for
 * all the transactions of a store) and then run with each call's values: building and compiling a
 * query cost more than running it (a token refresh spent about a tenth of its CPU there; a password
 * sign-in, which built four of its queries anew, about a sixth of its main thread: bench/server).
 *
 * On SQLite, outside a transaction, the compiled query runs on its better-sqlite3 statement at once,
 * without Kysely's driver (its connection lock and the promises around it cost about as much as
 * SQLite running the statement). better-sqlite3 is synchronous, so nothing can interleave with the
 * statement; the one thing that must not happen is running it inside another request's open
 * transaction (begun between two of that request's awaits), where it would commit or roll back with
 * that transaction: while one is open, the query waits for Kysely's connection like any other.
 * A write joins the writes of the same turn of the event loop in one transaction (commit-group.ts);
 * so do several writes that must commit together, run `now` inside one unit (`groupCommittedUnit`).
 */
import type { Statement } from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely, QueryResult, UnknownRow } from 'kysely';
import { groupCommitted } from './commit-group.ts';
import { sqliteConnection } from './db.ts';
import type { Database } from './schema.ts';
import { openRows, recordSealerOf, SealedRecords } from './sealed-records.ts';

type Db = Kysely<Database>;

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** SQLite only: the statement, and the connection it belongs to. */
  direct?: { statement: Statement; sqlite: NonNullable<ReturnType<typeof sqliteConnection>> };
}

/** What Kysely's SQLite driver answers for a statement, from better-sqlite3 directly. */
const runStatement = <Row>(statement: Statement, values: unknown[]): QueryResult<Row> => {
  if (statement.reader) return { rows: statement.all(values) as Row[] };
  const { changes, lastInsertRowid } = statement.run(values);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
};

/** The compiled query with this call's values, through Kysely's driver (and its connection lock). */
const throughKysely = <Row>(db: Db, query: CompiledQuery<Row>, values: unknown[]) =>
  db.executeQuery<Row>({ ...query, parameters: values });

/**
 * What a compiled query is kept under: the Kysely instance it runs on, or for a transaction without
 * plugins its dialect's adapter, which the store's instance made once and hands to each of its
 * transactions. The SQL depends on the dialect and the plugins alone, so a query compiled for one
 * transaction serves the next (a sign-in writes its session and refresh token in one).
 */
const cacheKey = (db: Db): object => {
  const executor = db.getExecutor();
  return db.isTransaction && executor.plugins.every((plugin) => plugin instanceof SealedRecords)
    ? executor.adapter
    : db;
};

/** Rows read directly are opened as the plugin opens Kysely's (sealed-records.ts). */
const opened = <Row>(db: Db, result: QueryResult<Row>): Promise<QueryResult<Row>> => {
  const opening = result.rows.length === 0 ? undefined : openRows(recordSealerOf(db), result.rows as UnknownRow[]);
  return opening === undefined ? Promise.resolve(result) : opening.then(() => result);
};

/**
 * A runner of the query `build` makes from placeholder values; `values` at each run take their
 * places in the compiled query's parameter order, which is the order `build` uses them in.
 */
export const compiledOnce = <Row, Values extends unknown[]>(
  build: (db: Db, ...placeholders: Values) => Compilable<Row>,
  placeholders: Values,
) => {
  const compiled = new WeakMap<object, Compiled<Row>>();
  const compile = (db: Db, key: object): Compiled<Row> => {
    const query = build(db, ...placeholders).compile();
    // A query whose values Kysely inlines or repeats cannot be run this way.
    if (query.parameters.length !== placeholders.length)
      throw new Error(`compiledOnce: ${query.parameters.length} parameters for ${placeholders.length} values`);
    // Undefined inside a transaction (its own executor) and on PostgreSQL.
    const sqlite = sqliteConnection(db);
    const entry: Compiled<Row> = sqlite
      ? { query, direct: { statement: sqlite.prepare(query.sql), sqlite } }
      : { query };
    compiled.set(key, entry);
    return entry;
  };
  const run = (db: Db, ...values: Values): Promise<QueryResult<Row>> => {
    const key = cacheKey(db);
    const { query, direct } = compiled.get(key) ?? compile(db, key);
    if (direct !== undefined && !direct.statement.readonly) {
      return groupCommitted(
        direct.sqlite,
        () => runStatement<Row>(direct.statement, values),
        () => throughKysely(db, query, values),
      );
    }
    if (direct !== undefined && !direct.sqlite.inTransaction) {
      try {
        return opened(db, runStatement<Row>(direct.statement, values));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return throughKysely(db, query, values);
  };
  /**
   * SQLite only: the statement run at once on the store's connection, for a write unit of several
   * statements that commit-group.ts runs in one go (`groupCommittedUnit`); rows are not opened.
   */
  const now = (db: Db, ...values: Values): QueryResult<Row> => {
    const key = cacheKey(db);
    const { direct } = compiled.get(key) ?? compile(db, key);
    if (direct === undefined) throw new Error('compiledOnce: run now on SQLite outside a Kysely transaction only');
    return runStatement<Row>(direct.statement, values);
  };
  return Object.assign(run, { now });
};
