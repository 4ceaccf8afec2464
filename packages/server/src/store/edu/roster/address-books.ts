/** Schools' home-school address books read as roster sources (migration 049). */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../schema.ts';

type Db = Kysely<Database>;

export const insertAddressBook = (db: Db, row: Insertable<Database['address_books']>) =>
  db.insertInto('address_books').values(row).returningAll().executeTakeFirstOrThrow();

export const findAddressBook = (db: Db, id: number) =>
  db.selectFrom('address_books').selectAll().where('id', '=', id).executeTakeFirst();

export const listAddressBooks = (db: Db) => db.selectFrom('address_books').selectAll().orderBy('id').execute();

export const updateAddressBook = (
  db: Db,
  id: number,
  change: Partial<Pick<Database['address_books'], 'app_id' | 'secret_sealed' | 'schedule' | 'next_sync_at'>>,
) => db.updateTable('address_books').set(change).where('id', '=', id).returningAll().executeTakeFirst();

/**
 * Takes a due book for one sync: moves its next sync to `next` where it is still `due`, so of several
 * processes (or sweeps) only one syncs it. Answers whether this caller took it.
 */
export const takeDueBook = async (db: Db, id: number, due: number, next: number) => {
  const result = await db
    .updateTable('address_books')
    .set({ next_sync_at: next })
    .where('id', '=', id)
    .where('next_sync_at', '=', due)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/** Books whose scheduled sync is due, oldest first. */
export const dueAddressBooks = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('address_books')
    .selectAll()
    .where('next_sync_at', '<=', now)
    .orderBy('next_sync_at')
    .limit(limit)
    .execute();

export const setBookReport = (db: Db, id: number, report: string) =>
  db.updateTable('address_books').set({ last_report: report }).where('id', '=', id).execute();
