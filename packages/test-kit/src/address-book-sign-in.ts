/**
 * The work apps' sign-in, served by the address-book stand-ins (address-book-peers.ts) for the school
 * they serve, on the vendors' published request shapes. The person "scanning" the QR code, or holding
 * the app whose browser opens EduPass, is `peer.signInAs` (a userid of the book, or another).
 *
 * - WeCom: `GET /wwlogin/sso/login?login_type=CorpApp&appid&agentid&redirect_uri&state` (the QR-code
 *   login) and `GET /connect/oauth2/authorize?appid&redirect_uri&response_type=code&scope&state&agentid`
 *   (OAuth inside WeCom) each send the browser to `redirect_uri?code&state`; `GET
 *   /cgi-bin/auth/getuserinfo?access_token&code` answers `userid` for a teacher (a member),
 *   `parent_userid` for a guardian, `student_userid` for a pupil (the school API's names), `openid`
 *   only for someone outside; 40029 for an unknown, used or 5-minute-old code.
 * - DingTalk: `GET /oauth2/auth?redirect_uri&response_type=code&client_id&scope=openid&state&prompt`
 *   sends the browser to `redirect_uri?authCode&state`; `POST /v1.0/oauth2/userAccessToken`
 *   {clientId, clientSecret, code, grantType} → `{accessToken, expireIn}` (HTTP 400 `{code, message}`
 *   for a bad code or client); `GET /v1.0/contact/users/me` (`x-acs-dingtalk-access-token`) →
 *   `{unionId, openId, nick}`; `POST /topapi/user/getbyunionid` {unionid} → `result.userid` (60121 for
 *   someone outside); `/dingtalk.open.js`, the JSAPI, whose `dd.runtime.permission.requestAuthCode`
 *   gives a free-login code for `signInAs` when asked with the organisation's corpId; `POST
 *   /topapi/v2/user/getuserinfo` {code} → `result.userid` (40078 for an unknown or used code).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SchoolBook } from './address-book-school.ts';
import { json } from './sms-peers.ts';

/** What a sign-in stand-in keeps: who signs in, the codes handed out (once each, 5 minutes). */
export interface SignInDesk {
  signInAs: string;
  codes: Map<string, { userid: string; at: number }>;
  userTokens: Map<string, string>;
}

export const newDesk = (): SignInDesk => ({ signInAs: '', codes: new Map(), userTokens: new Map() });

const CODE_MS = 5 * 60_000;

const mint = (desk: SignInDesk) => {
  const code = randomBytes(16).toString('hex');
  desk.codes.set(code, { userid: desk.signInAs, at: Date.now() });
  return code;
};

/** The userid a code names, spent; undefined for an unknown, used or old one. */
const spend = (desk: SignInDesk, code: unknown) => {
  const found = typeof code === 'string' ? desk.codes.get(code) : undefined;
  if (typeof code === 'string') desk.codes.delete(code);
  return found && Date.now() - found.at < CODE_MS ? found.userid : undefined;
};

const redirect = (response: ServerResponse, to: string) => {
  response.writeHead(302, { location: to });
  response.end();
};

const errorPage = (response: ServerResponse, text: string) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html><p>${text}</p>`);
};

const back = (redirectUri: string, fields: Record<string, string>) => {
  const to = new URL(redirectUri);
  for (const [key, value] of Object.entries(fields)) to.searchParams.set(key, value);
  return to.toString();
};

export type OpenHandler = (
  desk: SignInDesk,
  request: IncomingMessage,
  url: URL,
  text: string,
  response: ServerResponse,
) => void;
export type ApiHandler = (url: URL, body: Record<string, unknown>, answer: (body: object) => void) => void;

export const wecomSignIn = (desk: SignInDesk, app: { corpId: string; agentId: string }, book: () => SchoolBook) => {
  const open: Record<string, OpenHandler> = {
    '/wwlogin/sso/login': (_d, _request, url, _text, response) => {
      const q = url.searchParams;
      if (q.get('login_type') !== 'CorpApp' || q.get('appid') !== app.corpId || q.get('agentid') !== app.agentId) {
        return errorPage(response, '参数错误 (appid / agentid)');
      }
      redirect(response, back(q.get('redirect_uri') ?? '', { code: mint(desk), state: q.get('state') ?? '' }));
    },
    '/connect/oauth2/authorize': (_d, _request, url, _text, response) => {
      const q = url.searchParams;
      if (q.get('appid') !== app.corpId || q.get('response_type') !== 'code' || q.get('scope') !== 'snsapi_base') {
        return errorPage(response, '参数错误 (appid / scope)');
      }
      redirect(response, back(q.get('redirect_uri') ?? '', { code: mint(desk), state: q.get('state') ?? '' }));
    },
  };
  const api: Record<string, ApiHandler> = {
    '/cgi-bin/auth/getuserinfo': (url, _body, answer) => {
      const userid = spend(desk, url.searchParams.get('code'));
      if (userid === undefined) return answer({ errcode: 40029, errmsg: 'invalid code' });
      const b = book();
      if (b.teachers.some((t) => t.id === userid)) return answer({ userid });
      if (b.guardians.some((g) => g.id === userid)) return answer({ parent_userid: userid });
      if (b.pupils.some((p) => p.id === userid)) return answer({ student_userid: userid });
      answer({ openid: `o-${userid}`, external_userid: `wm-${userid}` });
    },
  };
  return { open, api };
};

/** Everyone of the book is in the organisation: teachers, pupils and guardians (DingTalk's K12 people). */
const inBook = (b: SchoolBook, userid: string) =>
  b.teachers.some((t) => t.id === userid) ||
  b.pupils.some((p) => p.id === userid) ||
  b.guardians.some((g) => g.id === userid);

/** The JSAPI: `dd.ready`, `dd.error`, and a free-login code for whoever holds the app. */
const jsapi = (code: string, corpId: string) => `window.dd = {
  ready: function (f) { setTimeout(f, 0); },
  error: function () {},
  runtime: { permission: { requestAuthCode: function (o) {
    setTimeout(function () {
      if (o.corpId === ${JSON.stringify(corpId)}) o.onSuccess({ code: ${JSON.stringify(code)} });
      else o.onFail({ errorCode: '3', errorMessage: 'corpId 不匹配' });
    }, 0);
  } } }
};`;

export const dingtalkSignIn = (
  desk: SignInDesk,
  app: { corpId: string; appKey: string; appSecret: string },
  book: () => SchoolBook,
) => {
  const refuse = (response: ServerResponse, code: string, message: string) =>
    json(response, 400, { code, message, requestid: randomBytes(8).toString('hex') });
  const open: Record<string, OpenHandler> = {
    '/oauth2/auth': (_d, _request, url, _text, response) => {
      const q = url.searchParams;
      const scopes = (q.get('scope') ?? '').split(/\s+/);
      if (q.get('client_id') !== app.appKey || q.get('response_type') !== 'code' || !scopes.includes('openid')) {
        return errorPage(response, '参数错误 (client_id / response_type / scope)');
      }
      redirect(response, back(q.get('redirect_uri') ?? '', { authCode: mint(desk), state: q.get('state') ?? '' }));
    },
    '/dingtalk.open.js': (_d, _request, _url, _text, response) => {
      response.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8' });
      response.end(jsapi(mint(desk), app.corpId));
    },
    '/v1.0/oauth2/userAccessToken': (_d, request, _url, text, response) => {
      let body: Record<string, unknown> = {};
      try {
        body = request.method === 'POST' ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        return refuse(response, 'MissingBody', 'body is not JSON');
      }
      if (body.clientId !== app.appKey || body.clientSecret !== app.appSecret) {
        return refuse(response, 'invalidClientIdOrSecret', '无效的clientId或者clientSecret');
      }
      if (body.grantType !== 'authorization_code') return refuse(response, 'invalidGrantType', 'grantType 不合法');
      const userid = spend(desk, body.code);
      if (userid === undefined) return refuse(response, 'invalidAuthCode', '不合法的临时授权码');
      const token = randomBytes(16).toString('hex');
      desk.userTokens.set(token, userid);
      json(response, 200, { accessToken: token, refreshToken: randomBytes(16).toString('hex'), expireIn: 7200 });
    },
    '/v1.0/contact/users/me': (_d, request, _url, _text, response) => {
      const userid = desk.userTokens.get(String(request.headers['x-acs-dingtalk-access-token'] ?? ''));
      if (userid === undefined) return refuse(response, 'InvalidAuthentication', '不合法的access_token');
      json(response, 200, { nick: userid, unionId: `u-${userid}`, openId: `o-${userid}`, stateCode: '86' });
    },
  };
  const api: Record<string, ApiHandler> = {
    '/topapi/user/getbyunionid': (_url, body, answer) => {
      const userid = String(body.unionid ?? '').replace(/^u-/, '');
      if (!inBook(book(), userid)) return answer({ errcode: 60121, errmsg: '找不到该用户' });
      answer({ result: { contact_type: 0, userid } });
    },
    '/topapi/v2/user/getuserinfo': (_url, body, answer) => {
      const userid = spend(desk, body.code);
      if (userid === undefined) return answer({ errcode: 40078, errmsg: '不存在的临时授权码' });
      if (!inBook(book(), userid)) return answer({ errcode: 60121, errmsg: '找不到该用户' });
      answer({ result: { userid, unionid: `u-${userid}`, name: userid, sys: false, sys_level: 0 } });
    },
  };
  return { open, api };
};
