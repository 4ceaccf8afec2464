/** The console's captcha policy calls (operators only). */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { captchaSettings, changeCaptchaPolicy, removeCaptchaPolicy } from '../services/captcha-settings.ts';

export const adminCaptchaRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'getCaptchaSettings', () => captchaSettings(ctx), { tags });
  defineRoute(app, ctx, 'setCaptchaPolicy', ({ session, body }) => changeCaptchaPolicy(ctx, session.userId, body), {
    tags,
  });
  defineRoute(app, ctx, 'clearCaptchaPolicy', ({ session, body }) => removeCaptchaPolicy(ctx, session.userId, body), {
    tags,
  });
};
