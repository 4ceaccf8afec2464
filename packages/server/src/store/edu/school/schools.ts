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

/** A page of schools, newest first: those added before the school `before` (an id), if given. */
export const schoolsPage = (db: Db, page: { before: number | undefined; limit: number }) => {
  let query = db.selectFrom('schools').selectAll().orderBy('id', 'desc').limit(page.limit);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  return query.execute();
};

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

/** The name a teacher gave the school (`school_members.display_name`, migration 055). */
export const setTeacherName = (db: Db, schoolId: number, userId: number, name: string) =>
  db
    .updateTable('school_members')
    .set({ display_name: name })
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .where('role', '=', 'teacher')
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
    .select([
      'schools.id',
      'schools.name',
      'school_members.role',
      'school_members.status',
      'school_members.display_name',
    ])
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

/** Where a page of teacher requests starts: after this request, in the order of its status. */
export interface TeacherRequestKey {
  status: 'pending' | 'approved';
  created_at: number;
  school_id: number;
  user_id: number;
}

/**
 * Teachers of one status, of one school or of every school, newest first, after `after` if given
 * (migration 045's indexes: role, status, then the time asked with the school and person as ties).
 */
export const teacherRequests = (
  db: Db,
  page: {
    status: 'pending' | 'approved';
    schoolId: number | undefined;
    after: TeacherRequestKey | undefined;
    limit: number;
  },
) => {
  let query = db
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
    .where('school_members.status', '=', page.status)
    .$narrowType<{ status: 'pending' | 'approved' }>()
    .orderBy('school_members.created_at', 'desc')
    .orderBy('school_members.school_id', 'desc')
    .orderBy('school_members.user_id', 'desc')
    .limit(page.limit);
  const after = page.after;
  if (page.schoolId !== undefined) {
    query = query.where('school_members.school_id', '=', page.schoolId);
    // Within one school its id is the same on every row: the time and the person order the page.
    if (after !== undefined) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('school_members.created_at', 'school_members.user_id'),
          '<',
          eb.tuple(after.created_at, after.user_id),
        ),
      );
    }
  } else if (after !== undefined) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('school_members.created_at', 'school_members.school_id', 'school_members.user_id'),
        '<',
        eb.tuple(after.created_at, after.school_id, after.user_id),
      ),
    );
  }
  return query.execute();
};
