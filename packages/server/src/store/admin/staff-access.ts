/** Operators' requests to read a minor's record, and the other operators' decisions (migration 029). */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { inStoreTransaction } from '../transaction.ts';
import { addCounts } from './report-counters.ts';

type Db = Kysely<Database>;

/** A request, counted (the yearly report's approvals requested) in the same transaction. */
export const insertApprovalRequest = (
  db: Db,
  row: { requested_by: number; subject_id: number; reason: string; created_at: number },
) =>
  inStoreTransaction(db, async (tx) => {
    const { id } = await tx
      .insertInto('staff_access_approvals')
      .values({ ...row, status: 'pending' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addCounts(tx, [{ figure: 'approvals', key: 'requested', at: row.created_at }]);
    return Number(id);
  });

export const findApproval = (db: Db, id: number) =>
  db.selectFrom('staff_access_approvals').selectAll().where('id', '=', id).executeTakeFirst();

/** Decides a pending request, counted with the decision; false when it was decided already. */
export const decideApproval = (
  db: Db,
  id: number,
  decision: { status: 'approved' | 'refused'; decided_by: number; decided_at: number; expires_at: number | null },
) =>
  inStoreTransaction(db, async (tx) => {
    const { numUpdatedRows } = await tx
      .updateTable('staff_access_approvals')
      .set(decision)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(numUpdatedRows) === 0) return false;
    await addCounts(tx, [{ figure: 'approvals', key: decision.status, at: decision.decided_at }]);
    return true;
  });

/** The operator's approval to read the person's record that is still running at `now`, if any. */
export const liveApproval = (db: Db, operatorId: number, subjectId: number, now: number) =>
  db
    .selectFrom('staff_access_approvals')
    .select(['id', 'reason', 'expires_at'])
    .where('requested_by', '=', operatorId)
    .where('subject_id', '=', subjectId)
    .where('status', '=', 'approved')
    .where('expires_at', '>', now)
    .orderBy('expires_at', 'desc')
    .executeTakeFirst();

/** Pending requests and those decided since `since`, pending first, each with the asker's and decider's names. */
export const approvalRequests = (db: Db, since: number, limit: number) =>
  db
    .selectFrom('staff_access_approvals as a')
    .leftJoin('users as asker', 'asker.id', 'a.requested_by')
    .leftJoin('users as decider', 'decider.id', 'a.decided_by')
    .select([
      'a.id',
      'a.requested_by',
      'asker.nickname as requested_by_name',
      'a.subject_id',
      'a.reason',
      'a.status',
      'a.decided_by',
      'decider.nickname as decided_by_name',
      'a.decided_at',
      'a.expires_at',
      'a.created_at',
    ])
    .where((eb) => eb.or([eb('a.status', '=', 'pending'), eb('a.decided_at', '>=', since)]))
    .orderBy((eb) => eb.case().when('a.status', '=', 'pending').then(0).else(1).end())
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
