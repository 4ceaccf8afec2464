/**
 * A development WeChat at /dev/oauth/wechat speaking open.weixin.qq.com and api.weixin.qq.com's
 * protocol for website sign-in: /connect/qrconnect (a screen instead of the QR code),
 * /sns/oauth2/access_token and /sns/userinfo, with WeChat's `{errcode, errmsg}` refusals.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Context } from '../context.ts';
import { confirmFromQuery, isOwnSite, queryOf, sendHtml } from './confirm.ts';
import type { DevIdentityStore } from './identities.ts';
import { errorScreen, signInScreen } from './screen.ts';

export const DEV_WECHAT_PREFIX = '/dev/oauth/wechat';

// WeChat answers its API with JSON typed text/plain.
const answer = (reply: FastifyReply, body: object) =>
  reply.code(200).type('text/plain; charset=utf-8').send(JSON.stringify(body));
const refuse = (reply: FastifyReply, errcode: number, errmsg: string) =>
  answer(reply, { errcode, errmsg: `${errmsg}, hints: [ req_id: dev-${Date.now().toString(36)} ]` });

export const devWechatRoutes = (app: FastifyInstance, ctx: Context, store: DevIdentityStore) => {
  const app_ = ctx.config.wechat;
  const hide = { schema: { hide: true } };

  app.get(`${DEV_WECHAT_PREFIX}/connect/qrconnect`, hide, async (request, reply) => {
    const q = queryOf(request.query);
    const problem =
      q.appid !== app_.appId
        ? 'appid 参数错误 · unknown appid'
        : q.scope?.split(',').includes('snsapi_login') !== true
          ? 'Scope 参数错误或没有 Scope 权限 · scope must be snsapi_login'
          : q.response_type !== 'code'
            ? 'response_type 参数错误 · response_type must be code'
            : !isOwnSite(ctx.config, q.redirect_uri)
              ? 'redirect_uri 参数错误 · invalid redirect_uri'
              : undefined;
    if (problem) return sendHtml(reply, 400, errorScreen('WeChat', problem));
    return sendHtml(
      reply,
      200,
      signInScreen({
        label: 'WeChat',
        action: `${DEV_WECHAT_PREFIX}/connect/confirm`,
        carry: { appid: q.appid ?? '', redirect_uri: q.redirect_uri ?? '', state: q.state ?? '' },
        names: store.names(),
        redirectUri: q.redirect_uri ?? '',
      }),
    );
  });

  app.get(`${DEV_WECHAT_PREFIX}/connect/confirm`, hide, async (request, reply) => {
    const wechat = {
      label: 'WeChat',
      appId: app_.appId,
      appIdParam: 'appid',
      unknownApp: 'appid 参数错误 · unknown appid',
    };
    return confirmFromQuery(store, reply, request.query, wechat, ctx.config, ctx.now());
  });

  app.get(`${DEV_WECHAT_PREFIX}/sns/oauth2/access_token`, hide, async (request, reply) => {
    const q = queryOf(request.query);
    if (q.appid !== app_.appId) return refuse(reply, 40013, 'invalid appid');
    if (q.secret !== app_.appSecret) return refuse(reply, 40125, 'invalid appsecret');
    if (q.grant_type !== 'authorization_code') return refuse(reply, 40002, 'invalid grant_type');
    if (!q.code) return refuse(reply, 41008, 'missing code');
    const grant = store.redeemCode(q.code, ctx.now());
    if (grant === 'used') return refuse(reply, 40163, 'code been used');
    if (grant === 'unknown' || grant.appId !== q.appid) return refuse(reply, 40029, 'invalid code');
    return answer(reply, {
      access_token: store.issueToken(grant, ctx.now()),
      expires_in: 7200,
      refresh_token: store.issueToken(grant, ctx.now()),
      openid: grant.identity.openid,
      scope: 'snsapi_login',
      unionid: grant.identity.unionid,
    });
  });

  app.get(`${DEV_WECHAT_PREFIX}/sns/userinfo`, hide, async (request, reply) => {
    const q = queryOf(request.query);
    if (!q.access_token) return refuse(reply, 41001, 'access_token missing');
    const token = store.token(q.access_token, ctx.now());
    if (!token) return refuse(reply, 40001, 'invalid credential, access_token is invalid or not latest');
    if (q.openid !== token.identity.openid) return refuse(reply, 40003, 'invalid openid');
    return answer(reply, {
      openid: token.identity.openid,
      nickname: token.identity.nickname,
      sex: 0,
      province: '',
      city: '',
      country: 'CN',
      headimgurl: token.identity.avatarUrl,
      privilege: [],
      unionid: token.identity.unionid,
    });
  });
};
