/**
 * The built-in development providers: registered where development routes are on (config.ts) for each of WeChat and QQ
 * that has no credentials configured, so the whole redirect flow runs on a laptop and in tests.
 */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { devIdentityStore } from './identities.ts';
import { DEV_QQ_PREFIX, devQqRoutes } from './qq.ts';
import { avatarSvg } from './screen.ts';
import { DEV_WECHAT_PREFIX, devWechatRoutes } from './wechat.ts';

export const devOauthRoutes = (app: FastifyInstance, ctx: Context) => {
  if (ctx.config.production || !ctx.config.devRoutes) return;
  // Read when an identity is shown: tests learn their URL only once listening.
  const base = () => ctx.config.publicUrl.replace(/\/+$/, '');
  if (ctx.config.wechat.mode === 'dev') {
    devWechatRoutes(
      app,
      ctx,
      devIdentityStore('wechat', () => `${base()}${DEV_WECHAT_PREFIX}`),
    );
  }
  if (ctx.config.qq.mode === 'dev')
    devQqRoutes(
      app,
      ctx,
      devIdentityStore('qq', () => `${base()}${DEV_QQ_PREFIX}`),
    );
  for (const prefix of [DEV_WECHAT_PREFIX, DEV_QQ_PREFIX]) {
    app.get<{ Params: { seed: string } }>(
      `${prefix}/avatar/:seed`,
      { schema: { hide: true } },
      async (request, reply) =>
        reply
          .type('image/svg+xml')
          .header('cache-control', 'public, max-age=86400')
          .send(avatarSvg(request.params.seed.replace(/\.svg$/, '').replace(/[^0-9a-f]/g, '0'))),
    );
  }
};
