/** Writes that must commit together: in the caller's transaction when `db` is one, else in one of their own. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export const inStoreTransaction = <T>(db: Kysely<Database>, work: (tx: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);
