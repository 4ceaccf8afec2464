/**
 * Guardians a school's address book lists for pupils, waiting for each guardian to confirm
 * (migration 049; services/edu/roster/ writes them, services/edu/family/school-invites.ts confirms).
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../schema.ts';
import { chunks } from '../roster/roster.ts';
import type { GuardianInvitesTable } from '../roster/roster-schema.ts';

type Db = Kysely<Database>;

export type GuardianInvite = Pick<
  GuardianInvitesTable,
  'source_hash' | 'school_id' | 'child_id' | 'relation' | 'phone' | 'confirmed_at'
>;

const inviteColumns = ['source_hash', 'school_id', 'child_id', 'relation', 'phone', 'confirmed_at'] as const;

export const invitesByHash = async (db: Db, hashes: string[]): Promise<GuardianInvite[]> => {
  const found: GuardianInvite[] = [];
  for (const part of chunks([...new Set(hashes)], 1000)) {
    if (part.length === 0) continue;
    found.push(
      ...(await db.selectFrom('guardian_invites').select(inviteColumns).where('source_hash', 'in', part).execute()),
    );
  }
  return found;
};

export const invitesOfSchools = (db: Db, schoolIds: number[]): Promise<GuardianInvite[]> =>
  schoolIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('guardian_invites').select(inviteColumns).where('school_id', 'in', schoolIds).execute();

export const insertInvites = async (db: Db, rows: Insertable<GuardianInvitesTable>[]) => {
  for (const part of chunks(rows)) if (part.length > 0) await db.insertInto('guardian_invites').values(part).execute();
};

/** A changed relation or phone; a confirmed invite keeps what was confirmed. */
export const updateInvites = async (db: Db, changes: { ref: string; relation: string; phone: string | null }[]) => {
  for (const c of changes) {
    await db
      .updateTable('guardian_invites')
      .set({ relation: c.relation, phone: c.phone })
      .where('source_hash', '=', c.ref)
      .where('confirmed_at', 'is', null)
      .execute();
  }
};

/** Invites the book no longer lists: gone (a confirmed guardian stays linked: the family decides). */
export const deleteInvites = async (db: Db, hashes: string[]) => {
  for (const part of chunks(hashes, 1000)) {
    if (part.length > 0) await db.deleteFrom('guardian_invites').where('source_hash', 'in', part).execute();
  }
};

/** The invites waiting for the holder of this phone, with the child's name and school. */
export const pendingInvitesForPhone = (db: Db, phone: string) =>
  db
    .selectFrom('guardian_invites')
    .innerJoin('schools', 'schools.id', 'guardian_invites.school_id')
    .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'guardian_invites.child_id')
    .select([
      'guardian_invites.id',
      'guardian_invites.child_id',
      'guardian_invites.school_id',
      'guardian_invites.relation',
      'guardian_invites.phone',
      'schools.name as school',
      'pupil_accounts.display_name as child_name',
    ])
    .where('guardian_invites.phone', '=', phone)
    .where('guardian_invites.confirmed_at', 'is', null)
    .orderBy('guardian_invites.id')
    .limit(50)
    .execute();

/** Marks an invite confirmed by `guardianId`; false when it was confirmed meanwhile (once however many race). */
export const markInviteConfirmed = async (db: Db, id: number, guardianId: number, now: number) => {
  const result = await db
    .updateTable('guardian_invites')
    .set({ confirmed_at: now, guardian_id: guardianId })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/**
 * A page of the school's invites still waiting, after the invite `after` (keyset, by id), with the
 * child's name: through the index of the waiting ones by (school, id) (migration 059), so a page reads
 * as many rows as it answers.
 */
export const waitingInvitesQuery = (db: Db, schoolId: number, after: number, limit: number) =>
  db
    .selectFrom('guardian_invites')
    .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'guardian_invites.child_id')
    .select([
      'guardian_invites.id',
      'guardian_invites.child_id',
      'guardian_invites.relation',
      'guardian_invites.phone',
      'guardian_invites.created_at',
      'guardian_invites.invited_at',
      'pupil_accounts.display_name as child_name',
    ])
    .where('guardian_invites.school_id', '=', schoolId)
    .where('guardian_invites.confirmed_at', 'is', null)
    .where('guardian_invites.id', '>', after)
    .orderBy('guardian_invites.id')
    .limit(limit);

export const waitingInvitesOfSchool = (db: Db, schoolId: number, after: number, limit: number) =>
  waitingInvitesQuery(db, schoolId, after, limit).execute();

/** The classes of the school each child is an active pupil of, by child. */
export const pupilClassesIn = async (db: Db, schoolId: number, childIds: number[]) => {
  const byChild = new Map<number, string[]>();
  if (childIds.length === 0) return byChild;
  const rows = await db
    .selectFrom('class_members')
    .innerJoin('classes', 'classes.id', 'class_members.class_id')
    .select(['class_members.user_id', 'classes.name'])
    .where('class_members.user_id', 'in', childIds)
    .where('class_members.role', '=', 'pupil')
    .where('class_members.status', '=', 'active')
    .where('classes.school_id', '=', schoolId)
    .orderBy('classes.id')
    .execute();
  for (const row of rows) byChild.set(Number(row.user_id), [...(byChild.get(Number(row.user_id)) ?? []), row.name]);
  return byChild;
};

/** One waiting invite of the school with a phone, for a resend. */
export const waitingInviteOfSchool = (db: Db, schoolId: number, id: number) =>
  db
    .selectFrom('guardian_invites')
    .innerJoin('schools', 'schools.id', 'guardian_invites.school_id')
    .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'guardian_invites.child_id')
    .select([
      'guardian_invites.id',
      'guardian_invites.phone',
      'guardian_invites.invited_at',
      'guardian_invites.invite_day',
      'guardian_invites.invites_that_day',
      'schools.name as school',
      'pupil_accounts.display_name',
    ])
    .where('guardian_invites.id', '=', id)
    .where('guardian_invites.school_id', '=', schoolId)
    .where('guardian_invites.confirmed_at', 'is', null)
    .executeTakeFirst();

/**
 * Takes one send of the invitation, in one conditional update (so parallel requests cannot all pass):
 * none in the last `intervalMs`, fewer than `perDay` on `day`. False when refused.
 */
export const takeInviteSend = async (
  db: Db,
  id: number,
  now: number,
  day: number,
  limits: { intervalMs: number; perDay: number },
) => {
  const result = await db
    .updateTable('guardian_invites')
    .set((eb) => ({
      invited_at: now,
      invite_day: day,
      invites_that_day: eb
        .case()
        .when('invite_day', '=', day)
        .then(eb('invites_that_day', '+', 1))
        .else(1)
        .end(),
    }))
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .where((eb) => eb.or([eb('invited_at', 'is', null), eb('invited_at', '<=', now - limits.intervalMs)]))
    .where((eb) =>
      eb.or([eb('invite_day', 'is', null), eb('invite_day', '<>', day), eb('invites_that_day', '<', limits.perDay)]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};
