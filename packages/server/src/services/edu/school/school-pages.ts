/**
 * The operator's lists of schools and of teacher requests, a page at a time: each page starts after a
 * key of the one before (the last school's id, the last request's `cursor`), so a page costs what it
 * shows however many schools and teachers there are, and rows added meanwhile move nothing.
 */
import type { Context } from '../../../context.ts';
import { invalidRequest } from '../../../errors.ts';
import { agreementsInForce } from '../../../store/edu/family/guardian-checks.ts';
import { schoolsPage, type TeacherRequestKey, teacherRequests } from '../../../store/edu/school/schools.ts';
import { logReads } from '../access-log.ts';
import { schoolView } from './schools.ts';

/** Schools a page holds at most, and without `limit`: a request without one answers as before for smaller lists. */
export const SCHOOL_PAGE_MAX = 1000;
/** Teacher requests a page holds at most, and without `limit` (the list's old bound). */
export const TEACHER_PAGE_MAX = 500;

const pageSize = (limit: number | undefined, max: number) => Math.min(Math.max(limit ?? max, 1), max);

/** A page of schools, newest first, each with its agreement in force; `before` a school's id pages back. */
export const listSchools = async (ctx: Context, query: { before?: number | undefined; limit?: number | undefined }) => {
  const schools = await schoolsPage(ctx.db, { before: query.before, limit: pageSize(query.limit, SCHOOL_PAGE_MAX) });
  const agreements = await agreementsInForce(
    ctx.db,
    schools.map((s) => Number(s.id)),
  );
  return schools.map((s) => schoolView(ctx, s, agreements.get(Number(s.id))));
};

/** A request's place in the list: `<status>.<asked at>.<school id>.<user id>`. */
const cursorOf = (key: TeacherRequestKey) => `${key.status}.${key.created_at}.${key.school_id}.${key.user_id}`;

const CURSOR = /^(pending|approved)\.(\d{1,16})\.(\d{1,16})\.(\d{1,16})$/;

const parseCursor = (cursor: string): TeacherRequestKey => {
  const match = CURSOR.exec(cursor);
  if (!match) throw invalidRequest('`before` must be the `cursor` of a teacher request.');
  const [, status, createdAt, schoolId, userId] = match;
  return {
    status: status as TeacherRequestKey['status'],
    created_at: Number(createdAt),
    school_id: Number(schoolId),
    user_id: Number(userId),
  };
};

/** The rows of a page: the pending ones after the key first, then the approved ones (after it, if approved). */
const requestRows = async (
  ctx: Context,
  schoolId: number | undefined,
  after: TeacherRequestKey | undefined,
  limit: number,
) => {
  const pending =
    after?.status === 'approved' ? [] : await teacherRequests(ctx.db, { status: 'pending', schoolId, after, limit });
  if (pending.length === limit) return pending;
  const approved = await teacherRequests(ctx.db, {
    status: 'approved',
    schoolId,
    after: after?.status === 'approved' ? after : undefined,
    limit: limit - pending.length,
  });
  return [...pending, ...approved];
};

/**
 * Teachers of every school (or of `school_id`), those waiting first, each part newest first: a page
 * after the request whose `cursor` is `before`. Their names and phones are logged as read.
 */
export const listTeacherRequests = async (
  ctx: Context,
  operatorId: number,
  query: { before?: string | undefined; limit?: number | undefined; school_id?: number | undefined },
) => {
  const after = query.before === undefined ? undefined : parseCursor(query.before);
  const rows = await requestRows(ctx, query.school_id, after, pageSize(query.limit, TEACHER_PAGE_MAX));
  const requests = rows.map((r) => {
    const key = {
      status: r.status,
      created_at: Number(r.created_at),
      school_id: Number(r.school_id),
      user_id: Number(r.user_id),
    };
    return { ...key, school_name: r.school_name, name: r.nickname ?? '', phone: r.phone, cursor: cursorOf(key) };
  });
  await logReads(ctx, {
    readerId: operatorId,
    role: 'operator',
    subjectIds: requests.map((r) => r.user_id),
    fields: ['nickname', 'phone', 'school'],
    purpose: 'teacher_requests',
  });
  return requests;
};
