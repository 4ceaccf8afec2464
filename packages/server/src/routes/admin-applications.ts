/** The console's applications: register, list, change, rotate a secret, remove (operators only). */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import {
  addApplication,
  listApplications,
  removeApplication,
  rotateApplicationSecret,
  updateApplication,
} from '../services/identity/applications.ts';

export const applicationAdminRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'listApplications', () => listApplications(ctx), { tags });
  defineRoute(app, ctx, 'addApplication', ({ body, session }) => addApplication(ctx, body, session.userId), { tags });
  defineRoute(
    app,
    ctx,
    'updateApplication',
    ({ params, body, session }) => updateApplication(ctx, params.client_id, body, session.userId),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'rotateApplicationSecret',
    ({ params, session }) => rotateApplicationSecret(ctx, params.client_id, session.userId),
    {
      tags,
    },
  );
  defineRoute(
    app,
    ctx,
    'removeApplication',
    ({ params, session }) => removeApplication(ctx, params.client_id, session.userId),
    { tags },
  );
};
