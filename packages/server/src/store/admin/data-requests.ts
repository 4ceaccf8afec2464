/** Data-rights requests (migration 029): one row per export, correction, deletion or objection. */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { DataRequestsTable } from './rights-schema.ts';

type Db = Kysely<Database>;

export const insertDataRequest = async (db: Db, row: Insertable<DataRequestsTable>) =>
  Number((await db.insertInto('data_requests').values(row).returning('id').executeTakeFirstOrThrow()).id);

export const findDataRequest = (db: Db, id: number) =>
  db.selectFrom('data_requests').selectAll().where('id', '=', id).executeTakeFirst();

/** The person's open request of this kind, if any (a deletion waiting for its grace to end). */
export const openRequestOf = (db: Db, userId: number, kind: DataRequestsTable['kind']) =>
  db
    .selectFrom('data_requests')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('status', '=', 'open')
    .orderBy('id', 'desc')
    .executeTakeFirst();

/** Closes an open request; false when it was closed already. */
export const closeDataRequest = async (
  db: Db,
  id: number,
  close: { status: 'done' | 'refused' | 'cancelled'; refusal_reason: string | null; closed_at: number },
) =>
  Number(
    (
      await db
        .updateTable('data_requests')
        .set(close)
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst()
    ).numUpdatedRows,
  ) > 0;

/** Newest first; open ones only when `open`; of one person or kind when given. */
export const dataRequests = (
  db: Db,
  query: { open: boolean; limit: number; userId?: number | undefined; kind?: DataRequestsTable['kind'] },
) => {
  let q = db.selectFrom('data_requests').selectAll();
  if (query.open) q = q.where('status', '=', 'open');
  if (query.userId !== undefined) q = q.where('user_id', '=', query.userId);
  if (query.kind !== undefined) q = q.where('kind', '=', query.kind);
  return q.orderBy('id', 'desc').limit(query.limit).execute();
};
