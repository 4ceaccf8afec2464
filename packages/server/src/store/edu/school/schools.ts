/** Schools and their members (school admins, teachers). */
import type { SchoolRole } from '@edupass/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../schema.ts';
import { indexSchoolName } from './school-names.ts';

type Db = Kysely<Database>;

/** Adds a school and writes its name for the search (in the caller's transaction, if any). */
export const insertSchool = async (db: Db, row: { name: string; daily_batches: number | null; created_at: number }) => {
  const school = await db.insertInto('schools').values(row).returningAll().executeTakeFirstOrThrow();
  await indexSchoolName(db, Number(school.id), row.name);
  return school;
};

export const findSchool = (db: Db, id: number) =>
  db.selectFrom('schools').selectAll().where('id', '=', id).executeTakeFirst();

export const allSchools = (db: Db) => db.selectFrom('schools').selectAll().orderBy('id').execute();

export const setSchoolBatches = (db: Db, id: number, dailyBatches: number) =>
  db.updateTable('schools').set({ daily_batches: dailyBatches }).where('id', '=', id).executeTakeFirst();

/** Whether pupils' printed cards keep working after their own password (migration 038). */
export const setCardsKeepWorking = (db: Db, id: number, keep: boolean) =>
  db
    .updateTable('schools')
    .set({ cards_keep_working: keep ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * Adds a member, or (approved) approves an existing one; a request (pending) leaves a pending or approved
 * member as it is and makes a refused one pending again.
 */
export const putSchoolMember = (
  db: Db,
  row: { school_id: number; user_id: number; role: SchoolRole; status: 'pending' | 'approved'; created_at: number },
) =>
  db
    .insertInto('school_members')
    .values(row)
    .onConflict((oc) =>
      row.status === 'approved'
        ? oc.columns(['school_id', 'user_id', 'role']).doUpdateSet({ status: 'approved' })
        : oc
            .columns(['school_id', 'user_id', 'role'])
            .doUpdateSet({ status: 'pending', created_at: row.created_at })
            .where('school_members.status', '=', 'refused'),
    )
    .execute();

/** Approves a pending teacher; false when there was no such request. */
export const approveSchoolTeacher = async (db: Db, schoolId: number, userId: number) => {
  const result = await db
    .updateTable('school_members')
    .set({ status: 'approved' })
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .where('role', '=', 'teacher')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/**
 * Turns a teacher's pending request down: kept as `refused` so the person sees it (and may ask again);
 * false when there was none (an approved teacher stays).
 */
export const refusePendingTeacher = async (db: Db, schoolId: number, userId: number) => {
  const result = await db
    .updateTable('school_members')
    .set({ status: 'refused' })
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .where('role', '=', 'teacher')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/** The user's approved roles in a school. */
export const schoolRolesOf = async (db: Db, schoolId: number, userId: number): Promise<SchoolRole[]> => {
  const rows = await db
    .selectFrom('school_members')
    .select('role')
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .where('status', '=', 'approved')
    .execute();
  return rows.map((r) => r.role);
};

export const schoolsOfUser = (db: Db, userId: number) =>
  db
    .selectFrom('school_members')
    .innerJoin('schools', 'schools.id', 'school_members.school_id')
    .select(['schools.id', 'schools.name', 'school_members.role', 'school_members.status'])
    .where('school_members.user_id', '=', userId)
    .orderBy('schools.id')
    .execute();

export const membersOfSchool = (db: Db, schoolId: number) =>
  db
    .selectFrom('school_members')
    .innerJoin('users', 'users.id', 'school_members.user_id')
    .select(['users.id as user_id', 'users.nickname', 'users.phone', 'school_members.role', 'school_members.status'])
    .where('school_members.school_id', '=', schoolId)
    .where('school_members.status', '!=', 'refused')
    .$narrowType<{ status: 'pending' | 'approved' }>()
    .orderBy('users.id')
    .execute();

/** Every school's teachers, those waiting first (the console's approvals list). */
export const teacherRequests = (db: Db) =>
  db
    .selectFrom('school_members')
    .innerJoin('users', 'users.id', 'school_members.user_id')
    .innerJoin('schools', 'schools.id', 'school_members.school_id')
    .select([
      'schools.id as school_id',
      'schools.name as school_name',
      'users.id as user_id',
      'users.nickname',
      'users.phone',
      'school_members.status',
      'school_members.created_at',
    ])
    .where('school_members.role', '=', 'teacher')
    .where('school_members.status', '!=', 'refused')
    .$narrowType<{ status: 'pending' | 'approved' }>()
    .orderBy('school_members.status', 'desc')
    .orderBy('school_members.created_at', 'desc')
    .limit(500)
    .execute();
