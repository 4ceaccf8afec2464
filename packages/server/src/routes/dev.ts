/**
 * Development-only routes: they hand out live codes, so they are registered only in development on a
 * loopback address or with DEV_ROUTES=1 (config.ts), never with NODE_ENV=production.
 */
import { outboxAnswer } from '@edupass/protocol';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import { outboxOf } from '../services/codes/dev-outbox.ts';

export const devRoutes = (app: FastifyInstance, ctx: Context) => {
  app.get(
    '/dev/outbox',
    {
      schema: {
        summary: 'Codes sent to a phone or e-mail, newest first (development only)',
        tags: ['dev'],
        response: { 200: outboxAnswer },
      },
    },
    async (request) => {
      const { to } = request.query as { to?: unknown };
      if (typeof to !== 'string' || to === '') throw invalidRequest('Give ?to=<phone or e-mail>.');
      const rows = await outboxOf(ctx, to);
      return rows.map((r) => ({ to: r.recipient, channel: r.channel, text: r.text, code: r.code, sent_at: r.sent_at }));
    },
  );
};
