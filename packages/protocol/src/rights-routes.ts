/**
 * Staff access and data rights (issue #31 items 5–6, #32 items 3–4): operators' requests to read a
 * minor's record and other operators' decisions, data-rights requests with their due dates, the yearly
 * report (`/admin/…`); and a guardian's view of who read the child's record (`/edu/…`).
 */

import { type Answer, boolean, integer, list, nullable, number, object, record, text } from './answer-schema.ts';
import { described } from './described-route.ts';
import { accessLogAnswer } from './edu-answers.ts';
import { eduRoute, readsPage } from './edu-routes.ts';
import { operatorRoute as admin } from './operator-route.ts';
import { int, opt, s } from './route-fields.ts';

const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;

export const staffAccessRequestAnswer = object({
  id: integer(),
  requested_by: integer(),
  requested_by_name: text(),
  /** Whose record. */
  subject_id: integer(),
  reason: text(),
  /** pending, approved, refused. */
  status: text(),
  decided_by: nullable(integer()),
  decided_by_name: text(),
  decided_at: nullable(integer()),
  /** An approval lets the asker read the record until then. */
  expires_at: nullable(integer()),
  created_at: integer(),
});

export const staffAccessAnswer = object({
  /** Whether reading a minor's record needs an approval (STAFF_ACCESS_APPROVAL). */
  approvals_required: boolean(),
  approval_hours: integer(),
  /** Pending first, then those decided in the last 30 days. */
  requests: list(staffAccessRequestAnswer),
});

export const dataRequestAnswer = object({
  id: integer(),
  user_id: integer(),
  /** export, correction, deletion, objection. */
  kind: text(),
  /** user, guardian, operator, unconfirmed. */
  requested_by: text(),
  /** open, done, refused, cancelled. */
  status: text(),
  detail: text(),
  refusal_reason: nullable(text()),
  created_at: integer(),
  due_at: integer(),
  closed_at: nullable(integer()),
  /** Answered after its due date, or open past it. */
  late: boolean(),
});

const countMap = record(integer());

/** `GET /admin/reports/yearly`: exact counts over one calendar year (China time). */
export const yearlyReportAnswer = object({
  year: integer(),
  /** The year's first and last millisecond (unix ms). */
  from: integer(),
  to: integer(),
  minors: object({
    /** Accounts under 18 that existed at the end of the year, by age band. */
    accounts_at_year_end: countMap,
    /** Accounts under 18 opened in the year (children included). */
    opened: integer(),
    /** Accounts under 14 opened in the year. */
    children_opened: integer(),
    /** Accounts under 18 erased in the year (children included), whoever asked. */
    erased: integer(),
    /** Accounts under 14 erased in the year. */
    children_erased: integer(),
  }),
  consents: object({ granted: integer(), refused: integer(), withdrawn: integer() }),
  requests: object({
    /** Made in the year, by kind. */
    made: countMap,
    /** Answered (done or refused) in the year, by kind. */
    handled: countMap,
    refused: integer(),
    answered_late: integer(),
    /** Still open at the end of the year and past their due date then. */
    open_late_at_year_end: integer(),
    /** Days from request to answer over the year's answered requests (null when none). */
    days_to_answer: object({ average: nullable(number()), longest: nullable(number()) }),
  }),
  staff_accesses: object({
    /** Access-log rows of the year by reader role. */
    reads: countMap,
    /** Operator reads of minors' records (each with a reason). */
    operator_reads_of_minors: integer(),
    /** Distinct minors (under 18, children included) whose record was read; adults are not counted. */
    people_read: integer(),
    /** Of them, children under 14. */
    children_read: integer(),
    approvals: object({ requested: integer(), approved: integer(), refused: integer() }),
  }),
  deletions: object({
    /** Accounts erased in the year, by who asked (user, guardian, operator, unconfirmed). */
    erased: countMap,
    /** Deletions asked for and then cancelled by the owner within the grace period. */
    cancelled: integer(),
  }),
});

export const rightsAdminRoutes = {
  listStaffAccess: admin(
    'GET',
    'staff-access',
    "Requests to read minors' records: pending first, then those decided in the last 30 days",
    staffAccessAnswer,
  ),
  requestStaffAccess: admin(
    'POST',
    'staff-access',
    "Ask to read a person's record, for a reason (another operator approves)",
    staffAccessRequestAnswer,
    { body: { user_id: id, reason: s(500) } },
  ),
  approveStaffAccess: admin(
    'POST',
    'staff-access/:id/approve',
    "Approve another operator's request (until STAFF_ACCESS_APPROVAL_HOURS)",
    staffAccessRequestAnswer,
    { params: { id } },
  ),
  refuseStaffAccess: admin(
    'POST',
    'staff-access/:id/refuse',
    "Refuse another operator's request",
    staffAccessRequestAnswer,
    { params: { id } },
  ),
  listDataRequests: admin(
    'GET',
    'data-requests',
    'Export, correction, deletion and objection requests, newest first, the late ones marked; `status=open` for the waiting ones',
    list(dataRequestAnswer),
    { query: { status: opt(s(16)), user_id: opt(id) } },
  ),
  recordDataRequest: admin(
    'POST',
    'data-requests',
    'Record a correction or objection that reached the operator another way',
    dataRequestAnswer,
    { body: { user_id: id, kind: s(16), detail: s(2000) } },
  ),
  closeDataRequest: admin(
    'POST',
    'data-requests/:id/close',
    'Answer an open request: done, or refused with the reason',
    dataRequestAnswer,
    { params: { id }, body: { status: s(16), reason: opt(s(2000)) } },
  ),
  yearlyReport: admin('GET', 'reports/yearly', 'The yearly report: exact counts over one year', yearlyReportAnswer, {
    query: { year: { ...int(), min: 2000, max: 2100 } },
  }),
} as const;

export const childAccessLogRoute = eduRoute('GET', 'guardian/children/:id/access-log', 'token', {
  params: { id },
  query: readsPage,
});

export const rightsUserTable = {
  childAccessLog: described(childAccessLogRoute, "A guardian's view of who read the child's record", accessLogAnswer),
};

export type StaffAccess = Answer<typeof staffAccessAnswer>;
export type StaffAccessRequest = Answer<typeof staffAccessRequestAnswer>;
export type DataRequest = Answer<typeof dataRequestAnswer>;
export type YearlyReport = Answer<typeof yearlyReportAnswer>;
