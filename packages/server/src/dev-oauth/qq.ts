/**
 * A development QQ at /dev/oauth/qq speaking graph.qq.com's OAuth 2.0 protocol: /oauth2.0/authorize
 * (a screen), /oauth2.0/token (form-encoded, or JSON with fmt=json), /oauth2.0/me (JSONP
 * `callback( {...} );`, with the unionid when asked) and /user/get_user_info (`{ret, msg, ...}`).
 * Refusals come as QQ sends them: JSONP `callback( {"error":…,"error_description":…} );`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Context } from '../context.ts';
import { confirmFromQuery, isOwnSite, queryOf, sendHtml } from './confirm.ts';
import type { DevIdentityStore } from './identities.ts';
import { errorScreen, signInScreen } from './screen.ts';

export const DEV_QQ_PREFIX = '/dev/oauth/qq';

const text = (reply: FastifyReply, body: string) => reply.code(200).type('text/html; charset=utf-8').send(body);
const jsonp = (reply: FastifyReply, body: object) => text(reply, `callback( ${JSON.stringify(body)} );\n`);
/** An OAuth refusal: JSON when the caller asked for fmt=json, else QQ's JSONP. */
const refuse = (reply: FastifyReply, json: boolean, error: number, description: string) =>
  json
    ? reply.code(200).type('application/json').send({ error, error_description: description })
    : jsonp(reply, { error, error_description: description });

export const devQqRoutes = (app: FastifyInstance, ctx: Context, store: DevIdentityStore) => {
  const app_ = ctx.config.qq;
  const hide = { schema: { hide: true } };

  app.get(`${DEV_QQ_PREFIX}/oauth2.0/authorize`, hide, async (request, reply) => {
    const q = queryOf(request.query);
    const problem =
      q.response_type !== 'code'
        ? '100000: response_type 非法 · response_type must be code'
        : q.client_id !== app_.appId
          ? '100008: 该 appid 不存在 · unknown client_id'
          : !isOwnSite(ctx.config, q.redirect_uri)
            ? '100010: 回调地址不合法 · redirect uri is illegal'
            : undefined;
    if (problem) return sendHtml(reply, 400, errorScreen('QQ', problem));
    return sendHtml(
      reply,
      200,
      signInScreen({
        label: 'QQ',
        action: `${DEV_QQ_PREFIX}/oauth2.0/confirm`,
        carry: { client_id: q.client_id ?? '', redirect_uri: q.redirect_uri ?? '', state: q.state ?? '' },
        names: store.names(),
        redirectUri: q.redirect_uri ?? '',
      }),
    );
  });

  app.get(`${DEV_QQ_PREFIX}/oauth2.0/confirm`, hide, async (request, reply) => {
    const qq = { label: 'QQ', appId: app_.appId, appIdParam: 'client_id', unknownApp: '100008: 该 appid 不存在' };
    return confirmFromQuery(store, reply, request.query, qq, ctx.config, ctx.now());
  });

  app.get(`${DEV_QQ_PREFIX}/oauth2.0/token`, hide, async (request, reply) => {
    const q = queryOf(request.query);
    const json = q.fmt === 'json';
    if (q.grant_type !== 'authorization_code') return refuse(reply, json, 100004, 'param grant_type is wrong');
    if (q.client_id !== app_.appId) return refuse(reply, json, 100008, 'client_id is illegal');
    if (q.client_secret !== app_.appSecret) return refuse(reply, json, 100009, 'client secret is illegal');
    if (!q.code) return refuse(reply, json, 100005, 'param code is wrong');
    const grant = store.redeemCode(q.code, ctx.now());
    if (grant === 'used') return refuse(reply, json, 100020, 'code is reused error');
    if (grant === 'unknown' || grant.appId !== q.client_id) {
      return refuse(reply, json, 100019, 'code to access token error');
    }
    if (q.redirect_uri !== grant.redirectUri) return refuse(reply, json, 100010, 'redirect uri is illegal');
    const answer = {
      access_token: store.issueToken(grant, ctx.now()),
      expires_in: '7776000',
      refresh_token: store.issueToken(grant, ctx.now()),
    };
    return json ? reply.type('application/json').send(answer) : text(reply, new URLSearchParams(answer).toString());
  });

  app.get(`${DEV_QQ_PREFIX}/oauth2.0/me`, hide, async (request, reply) => {
    const q = queryOf(request.query);
    const token = q.access_token ? store.token(q.access_token, ctx.now()) : undefined;
    if (!token) return refuse(reply, q.fmt === 'json', 100016, 'access token check failed');
    const body = {
      client_id: token.appId,
      openid: token.identity.openid,
      ...(q.unionid === '1' ? { unionid: token.identity.unionid } : {}),
    };
    return q.fmt === 'json' ? reply.type('application/json').send(body) : jsonp(reply, body);
  });

  app.get(`${DEV_QQ_PREFIX}/user/get_user_info`, hide, async (request, reply) => {
    const q = queryOf(request.query);
    const token = q.access_token ? store.token(q.access_token, ctx.now()) : undefined;
    const send = (body: object) => reply.type('application/json; charset=utf-8').send(body);
    if (!token) return send({ ret: 100016, msg: 'access token check failed' });
    if (q.oauth_consumer_key !== token.appId) return send({ ret: -22, msg: 'oauth_consumer_key is illegal' });
    if (q.openid !== token.identity.openid)
      return send({ ret: -1, msg: "client request's parameters are invalid, invalid openid" });
    const avatar = token.identity.avatarUrl;
    return send({
      ret: 0,
      msg: '',
      is_lost: 0,
      nickname: token.identity.nickname,
      gender: '男',
      gender_type: 1,
      province: '',
      city: '',
      year: '2010',
      figureurl: avatar,
      figureurl_1: avatar,
      figureurl_2: avatar,
      figureurl_qq_1: avatar,
      figureurl_qq_2: avatar,
      figureurl_qq: avatar,
      is_yellow_vip: '0',
      vip: '0',
      level: '0',
    });
  });
};
