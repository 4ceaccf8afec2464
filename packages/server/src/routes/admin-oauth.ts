/** The console's WeChat/QQ switch: code steps without EduPass's state, per product (operators only, audited). */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import {
  changeOauthWithoutState,
  oauthStateSettings,
  removeOauthWithoutState,
} from '../services/oauth/without-state.ts';

export const adminOauthRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'getOauthSettings', () => oauthStateSettings(ctx), { tags });
  defineRoute(
    app,
    ctx,
    'setOauthWithoutState',
    ({ session, body }) => changeOauthWithoutState(ctx, session.userId, body),
    {
      tags,
    },
  );
  defineRoute(
    app,
    ctx,
    'clearOauthWithoutState',
    ({ session, body }) => removeOauthWithoutState(ctx, session.userId, body),
    {
      tags,
    },
  );
};
