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
