import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import {
  addWebhook,
  listWebhooks,
  removeWebhook,
  resendDelivery,
  setWebhookEnabled,
  webhookAttempts,
  webhookDeliveries,
} from '../services/webhooks/webhooks.ts';

export const adminWebhookRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'listWebhooks', () => listWebhooks(ctx), { tags });
  defineRoute(app, ctx, 'addWebhook', ({ session, body }) => addWebhook(ctx, session.userId, body), { tags });
  defineRoute(app, ctx, 'removeWebhook', ({ session, params }) => removeWebhook(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'setWebhookEnabled',
    async ({ session, params, body }) => {
      await setWebhookEnabled(ctx, session.userId, params.id, body.enabled);
    },
    { tags },
  );
  defineRoute(app, ctx, 'listWebhookDeliveries', ({ params, query }) => webhookDeliveries(ctx, params.id, query), {
    tags,
  });
  defineRoute(app, ctx, 'listWebhookAttempts', ({ params }) => webhookAttempts(ctx, params.id), { tags });
  defineRoute(
    app,
    ctx,
    'resendWebhookDelivery',
    ({ session, params }) => resendDelivery(ctx, session.userId, params.id),
    { tags },
  );
};
