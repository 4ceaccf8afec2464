/**
 * A stand-in for the national smart education platform's sign-in (国家智慧教育公共服务平台, "Oauth认证类
 * 接口" on system.smartedu.cn), speaking what it publishes: `GET /uias/oauth/authorize` with
 * `grant_type=authorization_code` (not standard in an authorization request, required here),
 * `response_type=code`, `client_id` (the AppId), `redirect_uri` and `scope=userInfo`, answered by a
 * redirect with a `code` valid 5 minutes and usable once; `POST /uias/oauth/token` with `code`,
 * `grant_type`, `client_id`, `client_secret` (the AppKey) and `redirect_uri`, answered with an
 * `access_token` valid 2 hours. What it does not publish is as docs/education.md says EduPass
 * assumed: `state` handed back, the token answer's other fields and errors as RFC 6749 writes them,
 * and user information (`next`) at `/uias/oauth/userInfo` for the access token as a Bearer header.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { json, readBody } from './sms-peers.ts';

export const SMARTEDU_CODE_MS = 5 * 60_000;
export const SMARTEDU_TOKEN_MS = 2 * 3_600_000;

export interface SmarteduPlatform {
  url: string;
  /** The user information the next person to sign in has. */
  next: Record<string, unknown>;
  authorizeRequests: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  /** Token answers refused, with their `error`. */
  refused: string[];
  /** Moves the platform's clock on (codes and tokens age). */
  later(ms: number): void;
  close(): Promise<void>;
}

export const smarteduPlatform = async (app: { appId: string; appKey: string }): Promise<SmarteduPlatform> => {
  let offset = 0;
  const now = () => Date.now() + offset;
  const codes = new Map<string, { user: Record<string, unknown>; redirectUri: string; until: number }>();
  const tokens = new Map<string, { user: Record<string, unknown>; until: number }>();
  const platform: Omit<SmarteduPlatform, 'url' | 'close'> = {
    next: {},
    authorizeRequests: [],
    tokenRequests: [],
    refused: [],
    later: (ms) => {
      offset += ms;
    },
  };
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const url = new URL(request.url ?? '/', 'http://platform');
      const refuse = (status: number, error: string, description: string) => {
        platform.refused.push(error);
        json(response, status, { error, error_description: description });
      };
      if (request.method === 'GET' && url.pathname === '/uias/oauth/authorize') {
        const q = url.searchParams;
        platform.authorizeRequests.push(q);
        if (q.get('grant_type') !== 'authorization_code')
          return refuse(400, 'invalid_request', 'grant_type 固定传 authorization_code');
        if (q.get('response_type') !== 'code')
          return refuse(400, 'unsupported_response_type', 'response_type 固定传 code');
        if (q.get('client_id') !== app.appId) return refuse(400, 'invalid_client', 'client_id 不存在');
        if (q.get('scope') !== 'userInfo') return refuse(400, 'invalid_scope', 'scope 固定值 userInfo');
        const redirectUri = q.get('redirect_uri') ?? '';
        if (!redirectUri) return refuse(400, 'invalid_request', 'redirect_uri 必选');
        const code = randomBytes(12)
          .toString('hex')
          .replace(/(.{8})(.{8})(.{8})/, '$1-$2-$3');
        codes.set(code, { user: platform.next, redirectUri, until: now() + SMARTEDU_CODE_MS });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        const state = q.get('state');
        if (state) back.searchParams.set('state', state);
        response.writeHead(302, { location: back.toString() }).end();
        return;
      }
      if (request.method === 'POST' && url.pathname === '/uias/oauth/token') {
        const form = new URLSearchParams(body);
        platform.tokenRequests.push(form);
        if (form.get('client_id') !== app.appId || form.get('client_secret') !== app.appKey) {
          return refuse(401, 'invalid_client', '应用id或应用秘钥错误');
        }
        if (form.get('grant_type') !== 'authorization_code')
          return refuse(400, 'unsupported_grant_type', '固定值 authorization_code');
        const code = form.get('code') ?? '';
        const held = codes.get(code);
        // Once: a code is gone as soon as it is presented, whatever comes of it.
        codes.delete(code);
        if (!held || held.until <= now()) return refuse(400, 'invalid_grant', '授权码无效或已过期');
        if (held.redirectUri !== form.get('redirect_uri')) return refuse(400, 'invalid_grant', 'redirect_uri 不一致');
        const accessToken = randomBytes(24).toString('base64url');
        tokens.set(accessToken, { user: held.user, until: now() + SMARTEDU_TOKEN_MS });
        return json(response, 200, {
          access_token: accessToken,
          token_type: 'bearer',
          expires_in: SMARTEDU_TOKEN_MS / 1000,
        });
      }
      if (request.method === 'GET' && url.pathname === '/uias/oauth/userInfo') {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
        const held = tokens.get(bearer);
        if (!held || held.until <= now()) return refuse(401, 'invalid_token', '访问令牌无效或已过期');
        return json(response, 200, held.user);
      }
      json(response, 404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(platform, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
};
