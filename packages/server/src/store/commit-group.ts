/**
 * Group commit for the hot paths' single writes on SQLite (compiled-query.ts): the writes that many
 * requests ask for in one turn of the event loop run in one transaction, and each request's promise
 * settles only once that transaction has committed, with its own statement's result or error.
 *
 * On its own, each write is its own transaction, and the commit cost most of it: writing the pages
 * it touched to the WAL and taking and releasing SQLite's locks, about 40 µs, against about 7 µs for
 * the statement (a token refresh's one insert was a fifth of its CPU; bench/server). Under load the
 * writes of one turn share one commit; a write alone is committed alone, as before, one turn later.
 *
 * The same idea as the usage ingestion's writer (services/usage/group-commit.ts), which merges
 * requests' rows into bulk inserts; here each statement runs as it was written.
 *
 * - A statement's error (a constraint) undoes that statement only, as SQLite does in a transaction;
 *   the others commit. An error that ends the transaction itself (SQLite rolled it back: a full disk,
 *   an I/O error), or a commit that fails, leaves nothing of the group written: each statement is
 *   then run again alone, so one request's failure is not the others'.
 * - While another request's Kysely transaction is open on the connection (between two of its
 *   awaits), the group cannot begin its own: each statement then takes Kysely's path, which waits
 *   for that transaction, as it did before.
 * - A unit (`groupCommittedUnit`) is several statements that stand or fall together, run in one go
 *   (better-sqlite3 is synchronous: nothing interleaves): in a group, inside a savepoint, which an
 *   error rolls back alone; on its own, in a transaction of its own (units come through
 *   transaction.ts `inStoreUnit`). A sign-in's new session and its first refresh token are one
 *   (store/sessions/sessions.ts); so are the provider's writes of a request
 *   (services/identity/provider-writes.ts): resuming a sign-in deletes the interaction and saves the
 *   session, grant and code; the token endpoint consumes the code and saves the tokens. Through
 *   Kysely's transactions each was a commit of its own, with Kysely's BEGIN, COMMIT, connection lock
 *   and promises around it: as units, a card sign-in's server CPU read 0.80× and a refresh's 0.91×
 *   at 32 at once (bench/district beside the commit before them, 4 rounds).
 */
import type SQLite from 'better-sqlite3';

interface Write {
  /** The statement on the connection, synchronously. */
  run: () => unknown;
  /** The statement through Kysely's driver, while the connection is in another transaction. */
  queued: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const attempt = (run: () => unknown): Outcome => {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
};

const settle = (write: Write, outcome: Outcome) =>
  outcome.ok ? write.resolve(outcome.value) : write.reject(outcome.error);

/** Runs the group in one transaction; undefined when none of it could be kept (see above). */
const inOneTransaction = (sqlite: SQLite.Database, writes: Write[]): Outcome[] | undefined => {
  if (!attempt(() => sqlite.exec('BEGIN IMMEDIATE')).ok) return undefined;
  const outcomes: Outcome[] = [];
  for (const write of writes) {
    outcomes.push(attempt(write.run));
    // Rolled back by SQLite: what ran is undone, and what follows must not run outside the group.
    if (!sqlite.inTransaction) return undefined;
  }
  if (attempt(() => sqlite.exec('COMMIT')).ok) return outcomes;
  // A commit refused (a deferred constraint) leaves the transaction open; an I/O error may not.
  if (sqlite.inTransaction) attempt(() => sqlite.exec('ROLLBACK'));
  return undefined;
};

const flush = (sqlite: SQLite.Database, writes: Write[]) => {
  if (sqlite.inTransaction) {
    for (const write of writes) write.queued().then(write.resolve, write.reject);
    return;
  }
  const outcomes = writes.length > 1 ? inOneTransaction(sqlite, writes) : undefined;
  writes.forEach((write, i) => {
    settle(write, outcomes?.[i] ?? attempt(write.run));
  });
};

const groups = new WeakMap<SQLite.Database, Write[]>();

/** `run` joins this turn's group of writes on `sqlite`; `queued` is its way through Kysely. */
export const groupCommitted = <T>(sqlite: SQLite.Database, run: () => T, queued: () => Promise<T>): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const write: Write = { run, queued, resolve: resolve as (value: unknown) => void, reject };
    const group = groups.get(sqlite);
    if (group !== undefined) {
      group.push(write);
      return;
    }
    groups.set(sqlite, [write]);
    setImmediate(() => {
      const writes = groups.get(sqlite) ?? [];
      groups.delete(sqlite);
      flush(sqlite, writes);
    });
  });

/** Per connection: runs a function in a transaction of its own, or in a savepoint inside one. */
const units = new WeakMap<SQLite.Database, SQLite.Transaction<(unit: () => unknown) => unknown>>();

/**
 * `unit` (synchronous statements on `sqlite`) joins this turn's group as one write: in a savepoint
 * there, in BEGIN IMMEDIATE … COMMIT alone; an error it throws undoes its statements only and rejects
 * its promise. `queued` is the same work through Kysely, for when another transaction is open.
 */
export const groupCommittedUnit = <T>(sqlite: SQLite.Database, unit: () => T, queued: () => Promise<T>): Promise<T> => {
  let inUnit = units.get(sqlite);
  if (inUnit === undefined) {
    inUnit = sqlite.transaction((work: () => unknown) => work());
    units.set(sqlite, inUnit);
  }
  const transaction = inUnit;
  return groupCommitted(sqlite, () => transaction.immediate(unit) as T, queued);
};
