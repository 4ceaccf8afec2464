/** The operator's part of the education layer: schools, teacher approvals and quotas (`/admin/edu/…`). */
import { list, NO_CONTENT } from './answer-schema.ts';
import { schoolAnswer, teacherRequestAnswer } from './edu-answers.ts';
import { operatorRoute as admin } from './operator-route.ts';
import { opt, s } from './route-fields.ts';

const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;
const batches = { type: 'integer', required: true, min: 0, max: 10_000 } as const;

export const eduAdminRoutes = {
  listSchools: admin('GET', 'edu/schools', 'Every school with its daily pupil-batch quota', list(schoolAnswer)),
  addSchool: admin('POST', 'edu/schools', 'Add a school, optionally naming its first school admin', schoolAnswer, {
    body: { name: s(128), admin_user_id: opt(id), daily_batches: opt(batches) },
  }),
  setSchoolQuota: admin('PATCH', 'edu/schools/:id', "Set a school's pupil batches a day", NO_CONTENT, {
    params: { id },
    body: { daily_batches: batches },
  }),
  listTeacherRequests: admin(
    'GET',
    'edu/teacher-requests',
    'Teachers of every school, those waiting for approval first',
    list(teacherRequestAnswer),
  ),
  approveTeacherByOperator: admin(
    'POST',
    'edu/schools/:id/teachers/:user_id/approve',
    'Approve a teacher of a school',
    NO_CONTENT,
    { params: { id, user_id: id } },
  ),
  refuseTeacherByOperator: admin(
    'POST',
    'edu/schools/:id/teachers/:user_id/refuse',
    "Refuse a teacher's pending request to teach at a school",
    NO_CONTENT,
    { params: { id, user_id: id } },
  ),
} as const;
