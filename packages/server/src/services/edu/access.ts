/**
 * Who may see or change what in the education layer, answered from memberships alone: every edu
 * route asks here, and nothing else decides. What the caller may not see is `E_2`, as if it did not
 * exist (a teacher of class A learns nothing of class B). Guardianship attaches here later as one
 * more source of "may act on this person".
 *
 * - a school: its approved school admins manage it; its approved teachers teach there;
 * - a class: its active head teacher and teachers, and its school's admins;
 * - a pupil: whoever may act on an (unarchived or archived) class the pupil is an active pupil of;
 *   changing the account's password also needs the account to be the school's (no personal phone).
 */
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import type { Store } from '../../store/db.ts';
import { classRoleOf, findClass } from '../../store/edu/classes.ts';
import { findPupilAccount } from '../../store/edu/pupils.ts';
import { schoolRolesOf } from '../../store/edu/schools.ts';

export type Subject =
  | { kind: 'school'; id: number }
  | { kind: 'class'; id: number }
  | { kind: 'pupil'; id: number; classId: number };

/**
 * `read`: see it; `teach`: open classes in a school, change a class and its pupils' membership;
 * `manage`: a school admin's changes (approve teachers, quotas); `reset`: a pupil's password and card.
 */
export type EduAction = 'read' | 'teach' | 'manage' | 'reset';

/** One read or change of another person's record, for the access log. */
export interface AccessEntry {
  callerId: number;
  subject: Subject;
  action: EduAction;
  at: number;
}

const accessListeners = new WeakMap<Store, (entry: AccessEntry) => void>();

/** Where the access log attaches: called for every granted act on a pupil. */
export const onAccess = (store: Store, listen: (entry: AccessEntry) => void) => {
  accessListeners.set(store, listen);
  return () => accessListeners.delete(store);
};

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

const mayPupil = async (ctx: Context, callerId: number, userId: number, classId: number, action: EduAction) => {
  if ((await classRoleOf(ctx.db, classId, userId)) !== 'pupil') return false;
  if (!(await mayClass(ctx, callerId, classId, action === 'reset' ? 'teach' : action))) return false;
  if (action !== 'reset') return true;
  const [account, user] = await Promise.all([findPupilAccount(ctx.db, userId), findUserById(ctx.db, userId)]);
  const found = await findClass(ctx.db, classId);
  // Only the school's own accounts: one with a personal phone is the pupil's, and no teacher resets it.
  return account !== undefined && user?.phone == null && account.school_id === found?.school_id;
};

/** Whether the caller may do `action` on `subject`, from memberships only. */
export const mayActOn = async (ctx: Context, callerId: number, subject: Subject, action: EduAction) => {
  let allowed: boolean;
  if (subject.kind === 'school') allowed = await maySchool(ctx, callerId, subject.id, action);
  else if (subject.kind === 'class') allowed = await mayClass(ctx, callerId, subject.id, action);
  else allowed = await mayPupil(ctx, callerId, subject.id, subject.classId, action);
  if (allowed && subject.kind === 'pupil') {
    accessListeners.get(ctx.store)?.({ callerId, subject, action, at: ctx.now() });
  }
  return allowed;
};

/** `mayActOn`, refusing with E_2 (not found) where it says no. */
export const requireAccess = async (ctx: Context, callerId: number, subject: Subject, action: EduAction) => {
  if (!(await mayActOn(ctx, callerId, subject, action))) throw new ApiError('E_2');
};
