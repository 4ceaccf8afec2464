import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { presentedCredential } from '../http/origin-check.ts';
import { clearAuthCookie } from '../http/request-info.ts';
import { defineRoute } from '../http/route-kit.ts';
import { convertSessionToken, endSession, refreshTokens } from '../services/sessions/tokens.ts';

export const tokenRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'refreshTokens', ({ body }) => refreshTokens(ctx, body.refresh_token));
  defineRoute(app, ctx, 'deleteTokens', async ({ session, reply }) => {
    await endSession(ctx, session);
    clearAuthCookie(reply, ctx.config);
  });
  defineRoute(app, ctx, 'convertCookie', ({ request }) => convertSessionToken(ctx, presentedCredential(ctx, request)));
};
