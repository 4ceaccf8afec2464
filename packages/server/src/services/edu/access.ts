/**
 * Who may see or change what in the education layer, answered from memberships alone: every edu
 * route asks here, and nothing else decides. What the caller may not see is `E_2`, as if it did not
 * exist (a teacher of class A learns nothing of class B). Guardianship is the other source of "may
 * act on this person": a linked guardian may see and act for the child (`isGuardianOf`). What a granted call then shows of a pupil is logged by
 * that call (access-log.ts), since only it knows which fields it shows and why.
 *
 * - a school: its approved school admins manage it; its approved teachers teach there;
 * - a class: its active head teacher and teachers, and its school's admins;
 * - a pupil: whoever may act on an (unarchived or archived) class the pupil is an active pupil of;
 *   changing the account's password also needs the account to be the school's (no personal phone).
 */
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { isGuardianRow } from '../../store/edu/family/guardians.ts';
import { classRoleOf, findClass, pupilsInClass } from '../../store/edu/school/classes.ts';
import { findPupilAccount, pupilAccountsOf } from '../../store/edu/school/pupils.ts';
import { schoolRolesOf } from '../../store/edu/school/schools.ts';

export type Subject =
  | { kind: 'school'; id: number }
  | { kind: 'class'; id: number }
  | { kind: 'pupil'; id: number; classId: number };

/**
 * `read`: see it; `teach`: open classes in a school, change a class and its pupils' membership;
 * `manage`: a school admin's changes (approve teachers, quotas); `reset`: a pupil's password and card.
 */
export type EduAction = 'read' | 'teach' | 'manage' | 'reset';

const TEACHING_ROLES = new Set(['head_teacher', 'teacher']);

const maySchool = async (ctx: Context, callerId: number, schoolId: number, action: EduAction) => {
  const roles = await schoolRolesOf(ctx.db, schoolId, callerId);
  if (roles.includes('school_admin')) return true;
  return roles.includes('teacher') && (action === 'read' || action === 'teach');
};

const mayClass = async (ctx: Context, callerId: number, classId: number, action: EduAction) => {
  const found = await findClass(ctx.db, classId);
  if (!found) return false;
  if (action !== 'manage' && TEACHING_ROLES.has((await classRoleOf(ctx.db, classId, callerId)) ?? '')) {
    // A teacher who left the school (membership removed) keeps no access through old class rows.
    return (await schoolRolesOf(ctx.db, found.school_id, callerId)).length > 0;
  }
  return (await schoolRolesOf(ctx.db, found.school_id, callerId)).includes('school_admin');
};

/**
 * Whether every one of `userIds` is an active pupil of the class and the caller may do `action` on
 * each: one check of the class and two queries for the lot (a card sheet names a hundred pupils).
 */
const mayPupils = async (ctx: Context, callerId: number, classId: number, userIds: number[], action: EduAction) => {
  const wanted = new Set(userIds);
  if ((await pupilsInClass(ctx.db, classId, [...wanted])).length !== wanted.size) return false;
  if (!(await mayClass(ctx, callerId, classId, action === 'reset' ? 'teach' : action))) return false;
  if (action !== 'reset') return true;
  return (await schoolManaged(ctx.db, classId, [...wanted])).size === wanted.size;
};

/**
 * Of `userIds`, the accounts the class's school made and still manages: only these does a teacher
 * reset or print cards for; one with a personal phone is the pupil's (or joined by a join code).
 */
export const schoolManaged = async (db: Context['db'], classId: number, userIds: number[]): Promise<Set<number>> => {
  const [accounts, found] = await Promise.all([pupilAccountsOf(db, userIds), findClass(db, classId)]);
  return new Set(
    accounts.filter((a) => a.phone === null && a.school_id === found?.school_id).map((a) => Number(a.user_id)),
  );
};

/** Whether the caller may do `action` on `subject`, from memberships only. */
export const mayActOn = async (ctx: Context, callerId: number, subject: Subject, action: EduAction) => {
  if (subject.kind === 'school') return maySchool(ctx, callerId, subject.id, action);
  if (subject.kind === 'class') return mayClass(ctx, callerId, subject.id, action);
  return mayPupils(ctx, callerId, subject.classId, [subject.id], action);
};

/** `mayActOn`, refusing with E_2 (not found) where it says no. */
export const requireAccess = async (ctx: Context, callerId: number, subject: Subject, action: EduAction) => {
  if (!(await mayActOn(ctx, callerId, subject, action))) throw new ApiError('E_2');
};

/** `requireAccess` for pupils of one class at once: E_2 unless the caller may act on every one. */
export const requirePupilsAccess = async (
  ctx: Context,
  callerId: number,
  classId: number,
  userIds: number[],
  action: EduAction,
) => {
  if (userIds.length > 0 && !(await mayPupils(ctx, callerId, classId, userIds, action))) throw new ApiError('E_2');
};

/**
 * Whether the caller is a linked guardian of the child: a guardian may see the child's record and act
 * for the child (withdraw consent; export and deletion build on this too).
 */
export const isGuardianOf = (ctx: Pick<Context, 'db'>, callerId: number, childId: number) =>
  callerId !== childId ? isGuardianRow(ctx.db, callerId, childId) : Promise.resolve(false);

/** `isGuardianOf`, refusing with E_2 (not found) where it says no. */
export const requireGuardianOf = async (ctx: Pick<Context, 'db'>, callerId: number, childId: number) => {
  if (!(await isGuardianOf(ctx, callerId, childId))) throw new ApiError('E_2');
};

/**
 * Whether the caller works at the school that made the child's account (an approved role there, as a
 * teacher or an admin): the school can sign in as the child (a login card, a reset), so a guardian
 * code or a consent link "the child" opened may be the caller's own. Such a person neither links as
 * the child's guardian nor decides the child's consent; the child's family does.
 */
export const worksAtChildsSchool = async (ctx: Pick<Context, 'db'>, callerId: number, childId: number) => {
  const account = await findPupilAccount(ctx.db, childId);
  return account !== undefined && (await schoolRolesOf(ctx.db, account.school_id, callerId)).length > 0;
};

/** The refusal of `worksAtChildsSchool`, in plain words. */
export const STAFF_ARE_NOT_GUARDIANS =
  "Staff of the child's school cannot become the child's guardian or give consent for the child here: the school can sign in to this account. Another guardian can, from their own account.";
