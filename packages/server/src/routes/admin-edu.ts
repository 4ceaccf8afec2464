/** The operator's education routes: schools, teacher approvals, quotas (bulk actions are in the audit log). */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import {
  addSchool,
  approveTeacher,
  listSchools,
  listTeacherRequests,
  refuseTeacher,
  setSchoolQuota,
} from '../services/edu/schools.ts';

export const adminEduRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'listSchools', () => listSchools(ctx), { tags });
  defineRoute(app, ctx, 'addSchool', ({ session, body }) => addSchool(ctx, session.userId, body), { tags });
  defineRoute(
    app,
    ctx,
    'setSchoolQuota',
    ({ session, params, body }) => setSchoolQuota(ctx, session.userId, params.id, body.daily_batches),
    { tags },
  );
  defineRoute(app, ctx, 'listTeacherRequests', () => listTeacherRequests(ctx), { tags });
  defineRoute(
    app,
    ctx,
    'approveTeacherByOperator',
    ({ session, params }) => approveTeacher(ctx, session.userId, params.id, params.user_id, true),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'refuseTeacherByOperator',
    ({ session, params }) => refuseTeacher(ctx, session.userId, params.id, params.user_id),
    { tags },
  );
};
