/** Classes and their members (head teacher, teachers, pupils). */
import type { ClassRole } from '@edupass/protocol';
import { type Kysely, sql, type Updateable } from 'kysely';
import type { Database } from '../../schema.ts';
import type { ClassesTable } from '../edu-schema.ts';

type Db = Kysely<Database>;

export const insertClass = (
  db: Db,
  row: { school_id: number; name: string; grade: number; school_year: string; created_at: number },
) => db.insertInto('classes').values(row).returningAll().executeTakeFirstOrThrow();

/**
 * In a transaction on PostgreSQL: the class's grade, its row locked until the commit, so pupils created
 * now and a grade change now (which updates the row) happen one after the other, never on a stale
 * grade. SQLite runs one write transaction at a time: a plain read.
 */
export const lockedClassGrade = async (db: Db, id: number, postgres: boolean): Promise<number | undefined> => {
  if (!postgres) return (await findClass(db, id))?.grade;
  const { rows } = await sql<{ grade: number }>`select grade from classes where id = ${id} for update`.execute(db);
  return rows[0] === undefined ? undefined : Number(rows[0].grade);
};

export const findClass = (db: Db, id: number) =>
  db.selectFrom('classes').selectAll().where('id', '=', id).executeTakeFirst();

export const updateClassRow = (db: Db, id: number, changes: Updateable<ClassesTable>) =>
  db.updateTable('classes').set(changes).where('id', '=', id).returningAll().executeTakeFirst();

/** The unarchived class whose join code this is, while the code has not lapsed. */
export const findClassByJoinCode = (db: Db, code: string, now: number) =>
  db
    .selectFrom('classes')
    .selectAll()
    .where('join_code', '=', code)
    .where('join_code_expires_at', '>', now)
    .where('archived_at', 'is', null)
    .executeTakeFirst();

export const classesOfSchool = (db: Db, schoolId: number) =>
  db.selectFrom('classes').selectAll().where('school_id', '=', schoolId).orderBy('id').execute();

/** The user's role in the class, while active. */
export const classRoleOf = async (db: Db, classId: number, userId: number): Promise<ClassRole | undefined> => {
  const row = await db
    .selectFrom('class_members')
    .select('role')
    .where('class_id', '=', classId)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.role;
};

export const putClassMembers = (
  db: Db,
  rows: { class_id: number; user_id: number; role: ClassRole; status: 'active' | 'pending'; created_at: number }[],
) =>
  rows.length === 0
    ? Promise.resolve()
    : db
        .insertInto('class_members')
        .values(rows)
        .onConflict((oc) => oc.columns(['class_id', 'user_id']).doNothing())
        .execute()
        .then(() => undefined);

export const approveClassMember = async (db: Db, classId: number, userId: number) => {
  const result = await db
    .updateTable('class_members')
    .set({ status: 'active' })
    .where('class_id', '=', classId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/** Drops a join request that waits (answers whether there was one). */
export const dropJoinRequest = async (db: Db, classId: number, userId: number) => {
  const result = await db
    .deleteFrom('class_members')
    .where('class_id', '=', classId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
};

/** Active pupils of the class among `userIds` (all of them when none are named). */
export const pupilsInClass = (db: Db, classId: number, userIds?: number[]) => {
  let query = db
    .selectFrom('class_members')
    .select('user_id')
    .where('class_id', '=', classId)
    .where('role', '=', 'pupil')
    .where('status', '=', 'active');
  if (userIds) query = query.where('user_id', 'in', userIds.length > 0 ? userIds : [0]);
  return query.execute().then((rows) => rows.map((r) => Number(r.user_id)));
};

/** Moves pupils from one class to another: their row changes class, so the old class loses them at once. */
export const movePupilRows = async (db: Db, fromClass: number, toClass: number, userIds: number[], now: number) => {
  await db.deleteFrom('class_members').where('class_id', '=', toClass).where('user_id', 'in', userIds).execute();
  await db
    .updateTable('class_members')
    .set({ class_id: toClass, created_at: now })
    .where('class_id', '=', fromClass)
    .where('user_id', 'in', userIds)
    .where('role', '=', 'pupil')
    .execute();
};

export const membersOfClass = (db: Db, classId: number) =>
  db
    .selectFrom('class_members')
    .innerJoin('users', 'users.id', 'class_members.user_id')
    .leftJoin('pupil_accounts', 'pupil_accounts.user_id', 'class_members.user_id')
    .select([
      'class_members.user_id',
      'class_members.role',
      'class_members.status',
      'users.nickname',
      'users.username',
      'users.phone',
      'users.consent_state',
      'users.consent_pending_since',
      'users.created_at',
      'pupil_accounts.display_name',
    ])
    .where('class_members.class_id', '=', classId)
    .orderBy('class_members.role')
    .orderBy('class_members.user_id')
    .execute();

export const classesOfUser = (db: Db, userId: number) =>
  db
    .selectFrom('class_members')
    .innerJoin('classes', 'classes.id', 'class_members.class_id')
    .selectAll('classes')
    .select(['class_members.role', 'class_members.status'])
    .where('class_members.user_id', '=', userId)
    .orderBy('classes.id')
    .execute();
