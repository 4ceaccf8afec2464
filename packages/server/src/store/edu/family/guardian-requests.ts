/** Guardian links waiting for the child's guardians (migration 037). */
import type { Kysely } from 'kysely';
import type { Database } from '../../schema.ts';

type Db = Kysely<Database>;

/**
 * Records `requesterId`'s request to become `childId`'s guardian, or reopens the pair's decided one;
 * a pending one stays as it is. Answers the pair's row as it now stands.
 */
export const askToLink = async (
  db: Db,
  row: {
    child_id: number;
    requester_id: number;
    relation: string;
    asked_at: number;
    opens_at: number;
    via_school_id: number | null;
  },
) => {
  await db
    .insertInto('guardian_requests')
    .values({ ...row, state: 'pending' })
    .onConflict((oc) =>
      oc
        .columns(['child_id', 'requester_id'])
        .doUpdateSet({
          relation: row.relation,
          state: 'pending',
          asked_at: row.asked_at,
          opens_at: row.opens_at,
          decided_by: null,
          decided_at: null,
          how: null,
          via_school_id: row.via_school_id,
        })
        .where('guardian_requests.state', '<>', 'pending'),
    )
    .execute();
  return db
    .selectFrom('guardian_requests')
    .selectAll()
    .where('child_id', '=', row.child_id)
    .where('requester_id', '=', row.requester_id)
    .executeTakeFirstOrThrow();
};

export const findGuardianRequest = (db: Db, id: number) =>
  db.selectFrom('guardian_requests').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Moves a pending request to `approved` or `refused`; false when it was decided meanwhile (one
 * decision however many race).
 */
export const decideGuardianRequest = async (
  db: Db,
  id: number,
  decision: {
    state: 'approved' | 'refused';
    decided_by: number | null;
    decided_at: number;
    how: 'guardian' | 'waited';
  },
) =>
  Number(
    (
      await db
        .updateTable('guardian_requests')
        .set(decision)
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst()
    ).numUpdatedRows,
  ) === 1;

/** Pending requests whose waiting period ended by `now`, of one child or requester or any, oldest first. */
export const dueGuardianRequests = (
  db: Db,
  now: number,
  of: { childId?: number; requesterId?: number },
  limit: number,
) => {
  let query = db
    .selectFrom('guardian_requests')
    .selectAll()
    .where('state', '=', 'pending')
    .where('opens_at', '<=', now);
  if (of.childId !== undefined) query = query.where('child_id', '=', of.childId);
  if (of.requesterId !== undefined) query = query.where('requester_id', '=', of.requesterId);
  return query.orderBy('opens_at').limit(limit).execute();
};

/** Pending requests on the children `guardianId` is linked to, with who asked (name and phone). */
export const requestsToDecide = (db: Db, guardianId: number) =>
  db
    .selectFrom('guardian_requests as r')
    .innerJoin('guardians as g', (j) => j.onRef('g.child_id', '=', 'r.child_id').on('g.guardian_id', '=', guardianId))
    .innerJoin('users as asker', 'asker.id', 'r.requester_id')
    .innerJoin('users as child', 'child.id', 'r.child_id')
    .leftJoin('schools as school', 'school.id', 'r.via_school_id')
    .select([
      'r.id',
      'r.child_id',
      'r.relation',
      'r.asked_at',
      'r.opens_at',
      'asker.nickname as asker_nickname',
      'asker.fullname as asker_fullname',
      'asker.phone as asker_phone',
      'child.nickname as child_nickname',
      'child.fullname as child_fullname',
      'school.name as via_school',
    ])
    .where('r.state', '=', 'pending')
    .orderBy('r.asked_at')
    .execute();

/** The requests `requesterId` made, newest first. */
export const requestsBy = (db: Db, requesterId: number, limit: number) =>
  db
    .selectFrom('guardian_requests')
    .selectAll()
    .where('requester_id', '=', requesterId)
    .orderBy('asked_at', 'desc')
    .limit(limit)
    .execute();
