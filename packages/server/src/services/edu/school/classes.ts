/**
 * Classes: opening one (a teacher of the school becomes its head teacher), changes, co-teachers,
 * archiving at term end, moving up a grade, and the join code through which a pupil with a personal
 * account asks to join (a teacher of the class approves). Changes record a `class.changed` or
 * `class.membership.changed` event in their transaction.
 */
import { type AuditAction, DAY_MS, DAY_SECONDS } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { ApiError, fail, invalidRequest } from '../../../errors.ts';
import { findUserById } from '../../../store/account/users.ts';
import { moveGradeBand } from '../../../store/edu/family/guardians.ts';
import {
  approveClassMember,
  classRoleOf,
  dropJoinRequest,
  findClass,
  findClassByJoinCode,
  insertClass,
  membersOfClass,
  putClassMembers,
  updateClassRow,
} from '../../../store/edu/school/classes.ts';
import { schoolRolesOf } from '../../../store/edu/school/schools.ts';
import { countLockedTry } from '../../security/rate-limits.ts';
import { inTransaction, recordEvent } from '../../webhooks/events.ts';
import { requireAccess, schoolManaged } from '../access.ts';
import { logPupilReads } from '../access-log.ts';
import { eduAudit } from '../audit.ts';
import { drawCode } from '../codes.ts';
import { bandOfGrade, checkClassGrade, classGrades, gradeBandColumns } from '../family/age.ts';
import { minorModeChanged } from '../family/minor-mode.ts';
import { schoolConsentStands } from '../family/school-agreements.ts';
import { classNameClash } from './class-names.ts';
import { classToTeach } from './pupils.ts';
import { classView, requireName } from './schools.ts';

type ClassRow = NonNullable<Awaited<ReturnType<typeof findClass>>>;

const classEvent = async (
  tx: Context,
  callerId: number,
  type: 'class.changed' | 'class.membership.changed',
  data: Record<string, unknown>,
) => {
  const caller = await findUserById(tx.db, callerId);
  await recordEvent(tx, { type, userId: callerId, product: caller?.pid ?? '', data });
};

export const createClass = async (
  ctx: Context,
  callerId: number,
  schoolId: number,
  input: { name: string; grade: number; school_year: string },
) => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'teach');
  return inTransaction(ctx, async (tx) => {
    const created = await insertClass(tx.db, {
      school_id: schoolId,
      name: requireName(input.name),
      grade: checkClassGrade(tx.config, input.grade),
      school_year: requireName(input.school_year),
      created_at: tx.now(),
    });
    await putClassMembers(tx.db, [
      { class_id: created.id, user_id: callerId, role: 'head_teacher', status: 'active', created_at: tx.now() },
    ]);
    await classEvent(tx, callerId, 'class.changed', { change: 'created', class: classView(created) });
    return classView(created);
  }).catch(classNameClash);
};

/** What a class's member list shows of each pupil. */
const CLASS_DETAIL_FIELDS = ['name', 'username', 'membership', 'managed_by_school', 'consent'] as const;

export const classDetail = async (ctx: Context, callerId: number, classId: number) => {
  await requireAccess(ctx, callerId, { kind: 'class', id: classId }, 'read');
  const found = (await findClass(ctx.db, classId)) ?? fail('E_2');
  const members = await membersOfClass(ctx.db, classId);
  const pupils = members.filter((m) => m.role === 'pupil').map((m) => Number(m.user_id));
  await logPupilReads(ctx, callerId, pupils, CLASS_DETAIL_FIELDS, 'class_detail');
  // The class's other teachers are shown by name too.
  const teachers = members.filter((m) => m.role !== 'pupil').map((m) => Number(m.user_id));
  await logPupilReads(ctx, callerId, teachers, ['name', 'membership'], 'class_detail');
  return {
    class: classView(found),
    members: members.map((m) => ({
      user_id: Number(m.user_id),
      role: m.role,
      status: m.status,
      name: m.display_name ?? m.nickname ?? '',
      username: m.username,
      managed_by_school: m.display_name !== null && m.phone === null,
      consent: m.role === 'pupil' ? m.consent_state : null,
      consent_due_at:
        m.role === 'pupil' && m.consent_state === 'pending'
          ? Number(m.consent_pending_since ?? m.created_at) + ctx.config.eduConsentPendingDays * DAY_MS
          : null,
    })),
  };
};

const BULK_CLASS_CHANGES: Partial<Record<string, AuditAction>> = {
  archived: 'edu.class.archive',
  promoted: 'edu.class.promote',
};

/**
 * In `tx`: the class's grade changed, so its active pupils whose account the school made and manages
 * (no personal phone, no year and month of birth of their own) take the new grade's band and its
 * consent rules (age.ts `gradeBandColumns`); each moved pupil's minor mode is told to the products.
 * Answers the pupils moved.
 */
const followGrade = async (tx: Context, updated: ClassRow): Promise<number[]> => {
  const pupils = (await membersOfClass(tx.db, updated.id))
    .filter((m) => m.role === 'pupil' && m.status === 'active')
    .map((m) => Number(m.user_id));
  if (pupils.length === 0) return [];
  const managed = await schoolManaged(tx.db, updated.id, pupils);
  const band = bandOfGrade(Number(updated.grade));
  const consentBy = (await schoolConsentStands(tx, updated.school_id)) ? 'school' : 'guardian';
  const moved: number[] = [];
  for (const userId of managed) {
    const user = await findUserById(tx.db, userId);
    if (!user || user.birth_year_month !== null) continue;
    const to = gradeBandColumns(band, user.consent_state, consentBy, tx.now());
    if (to.age_band === user.age_band && to.consent_state === user.consent_state) continue;
    if (await moveGradeBand(tx.db, userId, user, to, tx.now())) {
      await minorModeChanged(tx, userId);
      moved.push(userId);
    }
  }
  return moved;
};

const changeClass = async (
  ctx: Context,
  callerId: number,
  found: ClassRow,
  changes: Partial<ClassRow>,
  change: string,
) => {
  const { view, moved } = await inTransaction(ctx, async (tx) => {
    const updated = (await updateClassRow(tx.db, found.id, changes)) ?? fail('E_2');
    // Whenever a grade is written (not compared with `found`, read before a parallel change committed).
    const movedPupils = changes.grade !== undefined ? await followGrade(tx, updated) : [];
    await classEvent(tx, callerId, 'class.changed', { change, class: classView(updated) });
    // Archiving and promoting act on every pupil of the class at once: bulk actions, in the audit log.
    const bulk = BULK_CLASS_CHANGES[change];
    if (bulk) await eduAudit(tx, callerId, bulk, `class:${found.id}`, `school:${found.school_id}`);
    if (movedPupils.length > 0 && !bulk) {
      await eduAudit(
        tx,
        callerId,
        'edu.class.grade',
        `class:${found.id}`,
        `grade ${Number(found.grade)} → ${Number(updated.grade)}, ${movedPupils.length} pupils' age band`,
      );
    }
    return { view: classView(updated), moved: movedPupils };
  }).catch(classNameClash);
  // Their sessions read the band and consent afresh.
  for (const userId of moved) ctx.sessions.forgetUser(userId);
  return view;
};

/** A class's grade decides its pupils' age band: its head teacher or a school admin changes it, no co-teacher. */
const requireGradeChanger = async (ctx: Context, callerId: number, found: ClassRow) => {
  if ((await classRoleOf(ctx.db, found.id, callerId)) === 'head_teacher') return;
  if ((await schoolRolesOf(ctx.db, found.school_id, callerId)).includes('school_admin')) return;
  throw new ApiError('E_4', "Only the class's head teacher or a school admin can change its grade.");
};

export const updateClass = async (
  ctx: Context,
  callerId: number,
  classId: number,
  input: { name?: string; grade?: number; school_year?: string },
) => {
  const found = await classToTeach(ctx, callerId, classId);
  // The same grade again is no change; a new one is one of the grade list, set by the head teacher.
  const grade =
    input.grade !== undefined && input.grade !== Number(found.grade)
      ? checkClassGrade(ctx.config, input.grade)
      : undefined;
  if (grade !== undefined) {
    if (found.archived_at !== null) throw invalidRequest('The class is archived.');
    await requireGradeChanger(ctx, callerId, found);
  }
  const changes = {
    ...(input.name !== undefined ? { name: requireName(input.name) } : {}),
    ...(grade !== undefined ? { grade } : {}),
    ...(input.school_year !== undefined ? { school_year: requireName(input.school_year) } : {}),
  };
  // Nothing to change: the class as it is, and no `class.changed` for the products.
  if (Object.keys(changes).length === 0) return classView(found);
  return changeClass(ctx, callerId, found, changes, 'updated');
};

export const archiveClass = async (ctx: Context, callerId: number, classId: number) => {
  const found = await classToTeach(ctx, callerId, classId);
  if (found.archived_at !== null) return;
  await changeClass(ctx, callerId, found, { archived_at: ctx.now(), join_code: null }, 'archived');
};

/** The next school year: the same class one grade up. */
export const promoteClass = async (ctx: Context, callerId: number, classId: number, schoolYear: string) => {
  const found = await classToTeach(ctx, callerId, classId);
  if (found.archived_at !== null) throw invalidRequest('The class is archived.');
  const next = Number(found.grade) + 1;
  // 高三 (or the last grade the operator allows) has no next one: its pupils leave school, not become adults.
  if (!classGrades(ctx.config).includes(next)) {
    throw invalidRequest('The class is in the last grade there is: archive it at the end of the school year.');
  }
  return changeClass(ctx, callerId, found, { grade: next, school_year: requireName(schoolYear) }, 'promoted');
};

/** A co-teacher must be an approved teacher (or admin) of the class's school. */
export const addClassTeacher = async (ctx: Context, callerId: number, classId: number, teacherId: number) => {
  const found = await classToTeach(ctx, callerId, classId);
  if ((await schoolRolesOf(ctx.db, found.school_id, teacherId)).length === 0) fail('E_2');
  await inTransaction(ctx, async (tx) => {
    await putClassMembers(tx.db, [
      { class_id: classId, user_id: teacherId, role: 'teacher', status: 'active', created_at: tx.now() },
    ]);
    await classEvent(tx, callerId, 'class.membership.changed', {
      class_id: classId,
      user_ids: [teacherId],
      role: 'teacher',
    });
  });
};

/** A join code works this long after it is opened; opening a new one replaces it. */
export const JOIN_CODE_DAYS = 14;

export const openJoinCode = async (ctx: Context, callerId: number, classId: number) => {
  const found = await classToTeach(ctx, callerId, classId);
  if (found.archived_at !== null) throw invalidRequest('The class is archived.');
  const code = drawCode(8);
  await updateClassRow(ctx.db, classId, {
    join_code: code,
    join_code_expires_at: ctx.now() + JOIN_CODE_DAYS * DAY_SECONDS * 1000,
  });
  return { join_code: code };
};

/**
 * A pupil with a personal account asks to join; the request waits for a teacher of the class. A
 * wrong, lapsed or archived class's code is E_2, alike. Every attempt, right or wrong, holds one of
 * the caller's attempts under the sign-in lock's numbers (LOGIN_LOCK_AFTER in LOGIN_LOCK_SECONDS,
 * slowed down after LOGIN_SLOWDOWN_AFTER), counted apart from sign-in: past them E_5 with the
 * seconds left. A right code does not give its attempt back, so joining a known class cannot
 * reopen the way to guessing others.
 */
export const joinClass = async (ctx: Context, userId: number, code: string) => {
  await countLockedTry(ctx, `edu-join:${userId}`);
  const found = (await findClassByJoinCode(ctx.db, code.trim().toUpperCase(), ctx.now())) ?? fail('E_2');
  await putClassMembers(ctx.db, [
    { class_id: found.id, user_id: userId, role: 'pupil', status: 'pending', created_at: ctx.now() },
  ]);
};

/** A teacher of the class turns a join request down: the request is gone; the user may ask again. */
export const refuseJoin = async (ctx: Context, callerId: number, classId: number, userId: number) => {
  await classToTeach(ctx, callerId, classId);
  if (!(await dropJoinRequest(ctx.db, classId, userId))) throw new ApiError('E_2');
};

export const approveJoin = async (ctx: Context, callerId: number, classId: number, userId: number) => {
  await classToTeach(ctx, callerId, classId);
  await inTransaction(ctx, async (tx) => {
    if (!(await approveClassMember(tx.db, classId, userId))) throw new ApiError('E_2');
    await classEvent(tx, callerId, 'class.membership.changed', {
      class_id: classId,
      user_ids: [userId],
      role: 'pupil',
    });
  });
};
