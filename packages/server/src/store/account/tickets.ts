/** Single-use tickets (reset, e-mail sign-up, captcha, oauth), stored by hash. */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/** The ticket `idHash` of `kind`, while unused and unexpired. */
const live = (idHash: string, kind: string, now: number) => (eb: ExpressionBuilder<Database, 'tickets'>) =>
  eb.and([eb('id_hash', '=', idHash), eb('kind', '=', kind), eb('used_at', 'is', null), eb('expires_at', '>', now)]);

export const putTicket = (db: Db, row: Database['tickets']) => db.insertInto('tickets').values(row).execute();

export const findTicket = (db: Db, idHash: string, kind: string, now: number) =>
  db
    .selectFrom('tickets')
    .selectAll()
    .where(live(idHash, kind, now))
    .executeTakeFirst();

/** Marks a live ticket used; true only for the one caller that did so. */
export const useTicket = async (db: Db, idHash: string, kind: string, now: number): Promise<boolean> => {
  const result = await db
    .updateTable('tickets')
    .set({ used_at: now })
    .where(live(idHash, kind, now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

/** Replaces the facts of a live ticket without spending it; false when it is gone. */
export const setTicketData = async (db: Db, idHash: string, kind: string, data: string, now: number) => {
  const result = await db
    .updateTable('tickets')
    .set({ data })
    .where(live(idHash, kind, now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

/** Removes the tickets of `kind` issued for these subjects (a reprinted card's old codes). */
export const dropTicketsOf = (db: Db, kind: string, subjects: string[]) =>
  subjects.length === 0
    ? Promise.resolve()
    : db
        .deleteFrom('tickets')
        .where('kind', '=', kind)
        .where('subject', 'in', subjects)
        .execute()
        .then(() => {});
