/** The console's captcha calls: policies, providers and vendor keys (operators only). */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import {
  captchaSettings,
  changeCaptchaPolicy,
  changeCaptchaProvider,
  changeVendorKeys,
  removeCaptchaPolicy,
  removeCaptchaProvider,
  removeVendorKeys,
} from '../services/captcha/settings.ts';

export const adminCaptchaRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'getCaptchaSettings', () => captchaSettings(ctx), { tags });
  defineRoute(app, ctx, 'setCaptchaPolicy', ({ session, body }) => changeCaptchaPolicy(ctx, session.userId, body), {
    tags,
  });
  defineRoute(app, ctx, 'clearCaptchaPolicy', ({ session, body }) => removeCaptchaPolicy(ctx, session.userId, body), {
    tags,
  });
  defineRoute(app, ctx, 'setCaptchaProvider', ({ session, body }) => changeCaptchaProvider(ctx, session.userId, body), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'clearCaptchaProvider',
    ({ session, body }) => removeCaptchaProvider(ctx, session.userId, body),
    { tags },
  );
  defineRoute(app, ctx, 'setCaptchaVendorKeys', ({ session, body }) => changeVendorKeys(ctx, session.userId, body), {
    tags,
  });
  defineRoute(app, ctx, 'clearCaptchaVendorKeys', ({ session, body }) => removeVendorKeys(ctx, session.userId, body), {
    tags,
  });
};
