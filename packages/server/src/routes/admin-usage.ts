/** The console's usage figures and monitor totals (operators only); the details are in admin-monitor.ts. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import { defineRoute } from '../http/route-kit.ts';
import {
  apiFailureRates,
  durations,
  monitorErrors,
  uniques,
  usageCounts,
  vitalsP75,
} from '../services/usage/dashboards.ts';
import { queryBucket, queryWindow } from '../services/usage/window.ts';

export const adminUsageRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(
    app,
    ctx,
    'usageEvents',
    ({ query }) => usageCounts(ctx, queryWindow(ctx, query), queryBucket(query.bucket), query.key || undefined),
    { tags },
  );
  defineRoute(app, ctx, 'usageUniques', ({ query }) => uniques(ctx, queryWindow(ctx, query)), { tags });
  defineRoute(
    app,
    ctx,
    'usageDurations',
    async ({ query }) => {
      if (!query.key) throw invalidRequest('Give ?key=<event key>.');
      return durations(ctx, queryWindow(ctx, query), query.key);
    },
    { tags },
  );
  defineRoute(app, ctx, 'monitorErrors', ({ query }) => monitorErrors(ctx, queryWindow(ctx, query)), { tags });
  defineRoute(app, ctx, 'monitorApi', ({ query }) => apiFailureRates(ctx, queryWindow(ctx, query)), { tags });
  defineRoute(app, ctx, 'monitorVitals', ({ query }) => vitalsP75(ctx, queryWindow(ctx, query)), { tags });
};
