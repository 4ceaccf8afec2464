/** Writes that must commit together: in the caller's transaction when `db` is one, else in one of their own. */
import type { Kysely } from 'kysely';
import { groupCommittedUnit } from './commit-group.ts';
import { sqliteConnection } from './db.ts';
import type { Database } from './schema.ts';

export const inStoreTransaction = <T>(db: Kysely<Database>, work: (tx: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/**
 * The same for a hot path's writes that SQLite can run at once (`now`: compiled statements run with
 * `compiledOnce(...).now`): on SQLite outside a transaction, one unit of the writes committed together
 * at that moment (commit-group.ts); elsewhere, and while another transaction holds the connection,
 * `work` as inStoreTransaction runs it.
 */
export const inStoreUnit = <T>(
  db: Kysely<Database>,
  now: () => T,
  work: (tx: Kysely<Database>) => Promise<T>,
): Promise<T> => {
  const sqlite = sqliteConnection(db);
  return sqlite === undefined
    ? inStoreTransaction(db, work)
    : groupCommittedUnit(sqlite, now, () => inStoreTransaction(db, work));
};
