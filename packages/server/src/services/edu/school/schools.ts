/**
 * Schools and who teaches there: operators add schools (and their first admin); a signed-in user with
 * a bound phone asks to teach at a school and is a teacher once an operator or a school admin approves.
 */
import { DAY_SECONDS } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { ApiError, fail, invalidRequest, RefusedForNow } from '../../../errors.ts';
import { findUserById, findUserByPhone } from '../../../store/account/users.ts';
import { classesOfSchool, classesOfUser } from '../../../store/edu/school/classes.ts';
import { findPupilAccount } from '../../../store/edu/school/pupils.ts';
import { nameKey, schoolsNamed } from '../../../store/edu/school/school-names.ts';
import {
  approveSchoolTeacher,
  findSchool,
  insertSchool,
  membersOfSchool,
  putSchoolMember,
  refusePendingTeacher,
  schoolsOfUser,
  setSchoolBatches,
  setTeacherName,
} from '../../../store/edu/school/schools.ts';
import { maskPhone } from '../../account/views.ts';
import { requireAccess } from '../access.ts';
import { logReads } from '../access-log.ts';
import { eduAudit } from '../audit.ts';
import { classGrades, currentBand, deletedWithoutConsentAt } from '../family/age.ts';
import { applicationsOf } from '../family/school-agreements.ts';
import { schoolBatchesUsed, schoolDailyBatches } from './quotas.ts';

export const classView = (c: {
  id: number;
  school_id: number;
  name: string;
  grade: number;
  school_year: string;
  archived_at: number | null;
}) => ({
  id: Number(c.id),
  school_id: Number(c.school_id),
  name: c.name,
  grade: Number(c.grade),
  school_year: c.school_year,
  archived: c.archived_at !== null,
});

export const schoolView = (
  ctx: Context,
  s: { id: number; name: string; daily_batches: number | null; created_at: number },
  agreement?: { signatory: string; signed_on: string; text_version: number; applications: string },
) => ({
  id: Number(s.id),
  name: s.name,
  daily_batches: schoolDailyBatches(ctx, s),
  created_at: Number(s.created_at),
  agreement: agreement
    ? {
        signatory: agreement.signatory,
        signed_on: agreement.signed_on,
        text_version: agreement.text_version,
        applications: applicationsOf(agreement),
      }
    : null,
});

export const addSchool = async (
  ctx: Context,
  operatorId: number,
  input: { name: string; admin_user_id?: number; daily_batches?: number },
) => {
  if (input.admin_user_id !== undefined && !(await findUserById(ctx.db, input.admin_user_id))) fail('AC3_3');
  const school = await insertSchool(ctx.db, {
    name: input.name.trim(),
    daily_batches: input.daily_batches ?? null,
    created_at: ctx.now(),
  });
  if (input.admin_user_id !== undefined) {
    await putSchoolMember(ctx.db, {
      school_id: school.id,
      user_id: input.admin_user_id,
      role: 'school_admin',
      status: 'approved',
      created_at: ctx.now(),
    });
  }
  await eduAudit(ctx, operatorId, 'school.add', `school:${school.id}`, school.name);
  return schoolView(ctx, school);
};

export const setSchoolQuota = async (ctx: Context, operatorId: number, schoolId: number, dailyBatches: number) => {
  const result = await setSchoolBatches(ctx.db, schoolId, dailyBatches);
  if (result.numUpdatedRows === 0n) fail('E_2');
  await eduAudit(ctx, operatorId, 'school.quota.set', `school:${schoolId}`, `${dailyBatches} batches a day`);
};

type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** An adult by the age the account gave, or an account never asked its age (accounts from before). */
const isAdultOrUnknown = (user: UserRow, now: number) => {
  const band = currentBand(user, now);
  return band === null || band === 'adult';
};

/** Only an adult's own account teaches: a pupil account (a school made it) or a minor's is `E_4`. */
const requireMayTeach = async (ctx: Context, user: UserRow) => {
  if (await findPupilAccount(ctx.db, Number(user.id))) throw new ApiError('E_4', 'A pupil account cannot teach.');
  if (!isAdultOrUnknown(user, ctx.now())) throw new ApiError('E_4', 'A child cannot teach.');
};

/**
 * Asks to teach at a school: a teacher must be reachable, so the account needs a bound phone. `name`
 * (optional): how the school knows them, shown to the pupils and guardians whose records they read.
 */
export const requestTeaching = async (ctx: Context, userId: number, schoolId: number, name?: string) => {
  const [user, school] = await Promise.all([findUserById(ctx.db, userId), findSchool(ctx.db, schoolId)]);
  if (!school) fail('E_2');
  if (!user?.phone) return fail('AC3_7');
  await requireMayTeach(ctx, user);
  await putSchoolMember(ctx.db, {
    school_id: schoolId,
    user_id: userId,
    role: 'teacher',
    status: 'pending',
    created_at: ctx.now(),
  });
  const given = name?.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  if (given) await setTeacherName(ctx.db, schoolId, userId, given);
};

/** Approves a teacher: by an operator (`byOperator`) or by one of the school's admins. */
export const approveTeacher = async (
  ctx: Context,
  callerId: number,
  schoolId: number,
  teacherId: number,
  byOperator: boolean,
) => {
  if (!byOperator) await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  if (!(await approveSchoolTeacher(ctx.db, schoolId, teacherId))) fail('E_2');
  await eduAudit(ctx, callerId, 'teacher.approve', `school:${schoolId}`, `user:${teacherId}`);
};

/**
 * Refuses a pending request to teach: by an operator (`byOperator`) or by one of the school's admins.
 * The person sees it refused and may ask again later.
 */
export const refuseTeacher = async (
  ctx: Context,
  callerId: number,
  schoolId: number,
  teacherId: number,
  byOperator = true,
) => {
  if (!byOperator) await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  if (!(await refusePendingTeacher(ctx.db, schoolId, teacherId))) fail('E_2');
  await eduAudit(ctx, callerId, 'teacher.refuse', `school:${schoolId}`, `user:${teacherId}`);
};

/** Schools a search answers at most. */
export const SCHOOL_SEARCH_MAX = 20;

/**
 * Schools by a part of their name, for someone looking for where to ask to teach: only their id and
 * name (nothing of who teaches or learns there), at most `SCHOOL_SEARCH_MAX`.
 */
export const searchSchools = async (ctx: Context, query: string) => {
  const key = nameKey(query);
  if ([...key].length < 2) throw invalidRequest('Type at least two characters of the name.');
  const rows = await schoolsNamed(ctx.db, key, SCHOOL_SEARCH_MAX);
  return { schools: rows.map((r) => ({ id: Number(r.id), name: r.name })) };
};

/**
 * Numbers a school admin may try in a day that have no account: "not registered" tells whether a
 * number has an account, so the form must not become a way to look through phone numbers. Each try
 * holds one before the lookup (atomic, so a parallel burst cannot all look) and a number with an
 * account gives it back; past the limit every add waits for the day's end.
 */
export const UNKNOWN_TEACHER_PHONES_PER_DAY = 20;

/**
 * A school admin adds a teacher by the phone number of the teacher's own account: approved at once, of
 * this school only (no other school, no class). Adding again changes nothing; a pupil account cannot teach.
 */
export const addTeacherByPhone = async (ctx: Context, callerId: number, schoolId: number, phone: string) => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  const tries = `teacher-add-phone:${callerId}`;
  if ((await ctx.counters.hit(tries, DAY_SECONDS)) > UNKNOWN_TEACHER_PHONES_PER_DAY) {
    throw new RefusedForNow(
      'AC3_23',
      await ctx.counters.ttl(tries),
      'Too many numbers without an account were tried today. Try again tomorrow.',
    );
  }
  const user = (await findUserByPhone(ctx.db, phone)) ?? fail('AC3_1');
  await ctx.counters.release(tries);
  const teacherId = Number(user.id);
  await requireMayTeach(ctx, user);
  await putSchoolMember(ctx.db, {
    school_id: schoolId,
    user_id: teacherId,
    role: 'teacher',
    status: 'approved',
    created_at: ctx.now(),
  });
  await eduAudit(ctx, callerId, 'teacher.add', `school:${schoolId}`, `user:${teacherId}`);
};

/** A school admin's view of the school. */
export const schoolOverview = async (ctx: Context, callerId: number, schoolId: number) => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  const school = (await findSchool(ctx.db, schoolId)) ?? fail('E_2');
  const [members, classes, used] = await Promise.all([
    membersOfSchool(ctx.db, schoolId),
    classesOfSchool(ctx.db, schoolId),
    schoolBatchesUsed(ctx, schoolId),
  ]);
  await logReads(ctx, {
    readerId: callerId,
    role: 'teacher',
    subjectIds: members.map((m) => Number(m.user_id)),
    fields: ['nickname', 'phone', 'school'],
    purpose: 'school_overview',
  });
  return {
    id: Number(school.id),
    name: school.name,
    daily_batches: schoolDailyBatches(ctx, school),
    batches_used_today: used,
    teachers: members.map((m) => ({
      user_id: Number(m.user_id),
      name: m.nickname ?? '',
      phone: maskPhone(m.phone),
      role: m.role,
      status: m.status,
    })),
    classes: classes.map(classView),
    cards_keep_working: school.cards_keep_working === 1,
  };
};

const teacherName = (schools: { display_name: string | null }[]) => {
  const given = schools.find((school) => school.display_name)?.display_name;
  return given ? { teacher_name: given } : {};
};

/**
 * The caller's schools, classes and roles; `must_change_password` as the session must change its
 * password before anything else (`passwordDue`: a pupil still on the card's password, a staff member's
 * past the staff policy; sessions/password-choice.ts), so the web client leads to the password form.
 * A staff session's answer (`staffSession`: it has an idle time-out, sessions/idle.ts) adds the
 * time-out's minutes, for the teaching screens to warn before it.
 */
export const memberships = async (ctx: Context, userId: number, passwordDue = false, staffSession = false) => {
  const [schools, classes, pupil, user] = await Promise.all([
    schoolsOfUser(ctx.db, userId),
    classesOfUser(ctx.db, userId),
    findPupilAccount(ctx.db, userId),
    findUserById(ctx.db, userId),
  ]);
  const managed = pupil !== undefined && !user?.phone;
  return {
    schools: schools.map((s) => ({ id: Number(s.id), name: s.name, role: s.role, status: s.status })),
    classes: classes.map((c) => ({ ...classView(c), role: c.role, status: c.status })),
    managed_by_school: managed,
    must_change_password: passwordDue,
    class_grades: classGrades(ctx.config),
    may_teach: pupil === undefined && user !== undefined && isAdultOrUnknown(user, ctx.now()),
    pupil_name: pupil?.display_name ?? null,
    deleted_without_consent_at: user ? deletedWithoutConsentAt(ctx.config, user) : null,
    // The name a teacher gave when asking to teach (the first school's that has one).
    ...teacherName(schools),
    ...(staffSession ? { idle_minutes: ctx.config.staffIdleMinutes } : {}),
  };
};

export const requireName = (name: string) => {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidRequest('The name must not be empty.');
  return trimmed;
};
