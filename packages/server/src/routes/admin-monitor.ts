/** The monitoring dashboard's detail calls (operators only); the totals are in admin-usage.ts. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { listApiCodes, listErrorGroups, vitalsOverTime } from '../services/usage/monitor-details.ts';
import { queryBucket, queryWindow } from '../services/usage/window.ts';

export const adminMonitorRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'monitorErrorGroups', ({ query }) => listErrorGroups(ctx, queryWindow(ctx, query)), { tags });
  defineRoute(app, ctx, 'monitorApiCodes', ({ query }) => listApiCodes(ctx, queryWindow(ctx, query)), { tags });
  defineRoute(
    app,
    ctx,
    'monitorVitalsSeries',
    ({ query }) => vitalsOverTime(ctx, queryWindow(ctx, query), queryBucket(query.bucket)),
    { tags },
  );
};
