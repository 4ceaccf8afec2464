/** The operator's staff-access approvals, data-rights requests and yearly report: each handler calls one service. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import {
  closeRequestByOperator,
  listDataRequests,
  recordRequestByOperator,
} from '../services/account/data-requests.ts';
import { decideStaffAccess, requestStaffAccess, staffAccessRequests } from '../services/admin/staff-access.ts';
import { yearlyReport } from '../services/admin/yearly-report.ts';

export const adminRightsRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'listStaffAccess', () => staffAccessRequests(ctx), { tags });
  defineRoute(
    app,
    ctx,
    'requestStaffAccess',
    ({ session, body }) => requestStaffAccess(ctx, session.userId, body.user_id, body.reason),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'approveStaffAccess',
    ({ session, params }) => decideStaffAccess(ctx, session.userId, params.id, true),
    {
      tags,
    },
  );
  defineRoute(
    app,
    ctx,
    'refuseStaffAccess',
    ({ session, params }) => decideStaffAccess(ctx, session.userId, params.id, false),
    {
      tags,
    },
  );
  defineRoute(app, ctx, 'listDataRequests', ({ query }) => listDataRequests(ctx, query), { tags });
  defineRoute(
    app,
    ctx,
    'recordDataRequest',
    ({ session, body }) => recordRequestByOperator(ctx, session.userId, body),
    {
      tags,
    },
  );
  defineRoute(
    app,
    ctx,
    'closeDataRequest',
    ({ session, params, body }) => closeRequestByOperator(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(app, ctx, 'yearlyReport', ({ query }) => yearlyReport(ctx, query.year), { tags });
};
