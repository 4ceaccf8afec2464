/**
 * Local stand-ins for the home-school address books of WeCom (企业微信 家校沟通) and DingTalk (钉钉
 * K12 家校通讯录), on the vendors' published request shapes, serving a school (address-book-school.ts):
 *
 * - WeCom: `GET /cgi-bin/gettoken?corpid&corpsecret` (7200 s), `GET /cgi-bin/school/department/list`
 *   (`type` 1 class, 2 grade, 5 school; a grade's `standard_grade`, `register_year`, `is_graduated`; a
 *   class's `department_admins` with `type` 3 head teacher, 4 subject teacher), `GET
 *   /cgi-bin/school/user/list?department_id` (`students[]` with `parents[]`: `parent_userid`,
 *   `relation`, `mobile` only where the school's app may read it), `GET /cgi-bin/user/get?userid`.
 * - DingTalk: `GET /gettoken?appkey&appsecret` (7200 s), then POSTed JSON with pages of at most 30
 *   (`page_no` from 1, `page_size`; `result.has_more`): `/topapi/edu/dept/list` (under `super_id`),
 *   `/topapi/edu/user/list` (`role` teacher | guardian | student, `class_id`),
 *   `/topapi/edu/user/relation/list` (`class_id`), and `/topapi/v2/user/get` (`userid`).
 *
 * Both answer `{errcode, errmsg}`: 40014 for an unknown access token, 42001 for one that expired
 * (`expireTokens()`), and the frequency limit (WeCom 45009, DingTalk 90018) on every `throttleEvery`-th
 * call when set. The fields DingTalk does not publish (dept/list's `dept_type` and grade `feature`,
 * relation/list's answer, a teacher's `feature.is_adviser`) are as docs/education.md says it assumed.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SchoolBook } from './address-book-school.ts';
import {
  type ApiHandler,
  dingtalkSignIn,
  newDesk,
  type OpenHandler,
  type SignInDesk,
  wecomSignIn,
} from './address-book-sign-in.ts';
import { json, readBody } from './sms-peers.ts';

export interface BookPeer {
  url: string;
  /** The school it serves; tests change it between syncs. */
  book: SchoolBook;
  /** Paths called, token fetches included. */
  calls: string[];
  /** Every `n`-th API call (not gettoken) answers the frequency limit; 0: never. */
  throttleEvery: number;
  /** Answers of the frequency limit sent. */
  throttled: number;
  /** Tokens handed out. */
  tokensIssued: number;
  /** The work app's sign-in (address-book-sign-in.ts): who signs in, and the codes handed out. */
  signIn: SignInDesk;
  /** The tokens handed out so far expire now: the next call with one answers 42001. */
  expireTokens(): void;
  close(): Promise<void>;
}

type Handler = (peer: BookPeer, url: URL, body: Record<string, unknown>, answer: (body: object) => void) => void;

const serve = async (
  vendor: { tokenPath: string; idParam: string; secretParam: string; busyCode: number },
  app: { id: string; secret: string },
  book: SchoolBook,
  routes: Record<string, Handler>,
  signIn?: (
    desk: SignInDesk,
    book: () => SchoolBook,
  ) => {
    open: Record<string, OpenHandler>;
    api: Record<string, ApiHandler>;
  },
): Promise<BookPeer> => {
  const tokens = new Map<string, boolean>();
  const desk = newDesk();
  const signInRoutes = signIn?.(desk, () => (peer as BookPeer).book);
  const apiRoutes: Record<string, Handler> = { ...routes };
  for (const [path, handler] of Object.entries(signInRoutes?.api ?? {})) {
    apiRoutes[path] = (_peer, url, body, answer) => handler(url, body, answer);
  }
  let peer: BookPeer | undefined;
  let apiCalls = 0;
  const handle = (request: IncomingMessage, text: string, response: ServerResponse) => {
    if (!peer) return;
    const url = new URL(request.url ?? '/', 'http://peer');
    peer.calls.push(url.pathname);
    const answer = (body: object) => json(response, 200, { errcode: 0, errmsg: 'ok', ...body });
    const refuse = (errcode: number, errmsg: string) => json(response, 200, { errcode, errmsg });
    const open = signInRoutes?.open[url.pathname];
    if (open) return open(desk, request, url, text, response);
    if (url.pathname === vendor.tokenPath) {
      if (url.searchParams.get(vendor.idParam) !== app.id || url.searchParams.get(vendor.secretParam) !== app.secret) {
        return refuse(40001, 'invalid credential');
      }
      const token = randomBytes(24).toString('base64url');
      tokens.set(token, true);
      peer.tokensIssued++;
      return answer({ access_token: token, expires_in: 7200 });
    }
    const route = apiRoutes[url.pathname];
    if (!route) return json(response, 404, { errcode: 404, errmsg: '请求的URI地址不存在' });
    const token = url.searchParams.get('access_token') ?? '';
    if (!tokens.has(token)) return refuse(40014, 'invalid access_token');
    if (tokens.get(token) === false) return refuse(42001, 'access_token expired');
    apiCalls++;
    if (peer.throttleEvery > 0 && apiCalls % peer.throttleEvery === 0) {
      peer.throttled++;
      return refuse(vendor.busyCode, 'api freq out of limit');
    }
    let body: Record<string, unknown> = {};
    if (request.method === 'POST') {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return refuse(40035, '不合法的参数');
      }
    }
    route(peer, url, body, answer);
  };
  const server = createServer((request, response) => {
    readBody(request).then((text) => handle(request, text, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    book,
    calls: [],
    throttleEvery: 0,
    throttled: 0,
    tokensIssued: 0,
    signIn: desk,
    expireTokens: () => {
      for (const token of tokens.keys()) tokens.set(token, false);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return peer;
};

const ROOT = 1;

/**
 * WeCom's stand-in. One secret serves the book and the sign-in here (each app of a real organisation
 * has its own); `agentId` is the sign-in app's.
 */
export const wecomBookPeer = (app: { corpId: string; secret: string; agentId?: string }, book: SchoolBook) =>
  serve(
    { tokenPath: '/cgi-bin/gettoken', idParam: 'corpid', secretParam: 'corpsecret', busyCode: 45009 },
    { id: app.corpId, secret: app.secret },
    book,
    {
      '/cgi-bin/school/department/list': ({ book: b }, _url, _body, answer) =>
        answer({
          departments: [
            { id: ROOT, parentid: 0, name: b.name, type: 5, order: 0 },
            ...b.grades.map((g, i) => ({
              id: g.id,
              parentid: ROOT,
              name: g.name,
              type: 2,
              register_year: g.registerYear,
              standard_grade: g.standardGrade,
              order: i,
              is_graduated: g.graduated ? 1 : 0,
            })),
            ...b.classes.map((c, i) => ({
              id: c.id,
              parentid: c.gradeId,
              name: c.name,
              type: 1,
              order: i,
              department_admins: [
                { userid: c.headTeacher, type: 3, subject: '语文' },
                ...c.teachers.map((userid) => ({ userid, type: 4, subject: '数学' })),
              ],
            })),
          ],
        }),
      '/cgi-bin/school/user/list': ({ book: b }, url, _body, answer) => {
        const classId = Number(url.searchParams.get('department_id'));
        answer({
          students: b.pupils
            .filter((p) => p.classId === classId)
            .map((p) => ({
              student_userid: p.id,
              name: p.name,
              department: [classId],
              parents: b.guardians
                .filter((g) => g.pupilId === p.id)
                .map((g) => ({
                  parent_userid: g.id,
                  relation: g.relation,
                  ...(g.mobile === null ? {} : { mobile: g.mobile }),
                  is_subscribe: 1,
                })),
            })),
        });
      },
      '/cgi-bin/user/get': ({ book: b }, url, _body, answer) => {
        const teacher = b.teachers.find((t) => t.id === url.searchParams.get('userid'));
        if (!teacher) return answer({ errcode: 60111, errmsg: 'userid not found' });
        answer({ userid: teacher.id, name: teacher.name, mobile: teacher.mobile, email: teacher.email, status: 1 });
      },
    },
    (desk, b) => wecomSignIn(desk, { corpId: app.corpId, agentId: app.agentId ?? '1000002' }, b),
  );

/** DingTalk's largest page of the edu lists; a larger `page_size` is refused. */
const DINGTALK_PAGE = 30;

/** One page of a list as DingTalk answers it, or the refusal of a bad page. */
const paged = <T>(rows: T[], body: Record<string, unknown>, field: string, answer: (body: object) => void) => {
  const page = Number(body.page_no);
  const size = Number(body.page_size);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1 || size > DINGTALK_PAGE) {
    return answer({ errcode: 40035, errmsg: '不合法的参数: page_size 最大30条', success: false });
  }
  const slice = rows.slice((page - 1) * size, page * size);
  answer({ success: true, result: { has_more: page * size < rows.length, [field]: slice } });
};

const CAMPUS = 1;
const PERIOD = 2;

/** DingTalk's stand-in; `corpId` is the organisation's, which the in-app JSAPI is asked with. */
export const dingtalkBookPeer = (app: { appKey: string; appSecret: string; corpId?: string }, book: SchoolBook) =>
  serve(
    { tokenPath: '/gettoken', idParam: 'appkey', secretParam: 'appsecret', busyCode: 90018 },
    { id: app.appKey, secret: app.appSecret },
    book,
    {
      '/topapi/edu/dept/list': ({ book: b }, _url, body, answer) => {
        const superId = body.super_id === undefined ? undefined : Number(body.super_id);
        const nodes =
          superId === undefined
            ? [{ dept_id: CAMPUS, name: b.name, dept_type: 'campus', feature: '{}' }]
            : superId === CAMPUS
              ? [{ dept_id: PERIOD, name: '小学', dept_type: 'period', feature: '{}' }]
              : superId === PERIOD
                ? b.grades.map((g) => ({
                    dept_id: g.id,
                    name: g.name,
                    dept_type: 'grade',
                    feature: JSON.stringify({ graduated: g.graduated }),
                  }))
                : b.classes
                    .filter((c) => c.gradeId === superId)
                    .map((c) => ({ dept_id: c.id, name: c.name, dept_type: 'class', feature: '{}' }));
        paged(nodes, body, 'details', answer);
      },
      '/topapi/edu/user/list': ({ book: b }, _url, body, answer) => {
        const classId = Number(body.class_id);
        const klass = b.classes.find((c) => c.id === classId);
        const pupils = b.pupils.filter((p) => p.classId === classId);
        const person = (userid: string, name: string, role: string, feature = {}) => ({
          class_id: classId,
          role,
          userid,
          name,
          unionid: `u-${userid}`,
          feature: JSON.stringify(feature),
        });
        const rows =
          body.role === 'student'
            ? pupils.map((p) => person(p.id, p.name, 'student'))
            : body.role === 'guardian'
              ? b.guardians
                  .filter((g) => pupils.some((p) => p.id === g.pupilId))
                  .map((g) =>
                    person(g.id, `${b.pupils.find((p) => p.id === g.pupilId)?.name}${g.relation}`, 'guardian'),
                  )
              : body.role === 'teacher' && klass
                ? [klass.headTeacher, ...klass.teachers].map((id, i) =>
                    person(id, b.teachers.find((t) => t.id === id)?.name ?? id, 'teacher', {
                      is_adviser: i === 0 ? 1 : 0,
                    }),
                  )
                : undefined;
        if (!rows) return answer({ errcode: 40035, errmsg: '不合法的参数: role', success: false });
        paged(rows, body, 'details', answer);
      },
      '/topapi/edu/user/relation/list': ({ book: b }, _url, body, answer) => {
        const classId = Number(body.class_id);
        const pupils = new Set(b.pupils.filter((p) => p.classId === classId).map((p) => p.id));
        const codes: Record<string, string> = { 爸爸: 'F', 妈妈: 'M', 爷爷: 'GF', 奶奶: 'GM' };
        const rows = b.guardians
          .filter((g) => pupils.has(g.pupilId))
          .map((g) => ({
            from_userid: g.id,
            to_userid: g.pupilId,
            relation_code: codes[g.relation] ?? 'OTHER',
            relation_name: g.relation,
            class_id: classId,
          }));
        paged(rows, body, 'relations', answer);
      },
      '/topapi/v2/user/get': ({ book: b }, _url, body, answer) => {
        const teacher = b.teachers.find((t) => t.id === body.userid);
        if (!teacher) return answer({ errcode: 60121, errmsg: '找不到该用户' });
        answer({ result: { userid: teacher.id, name: teacher.name, mobile: teacher.mobile, email: teacher.email } });
      },
    },
    (desk, b) =>
      dingtalkSignIn(desk, { corpId: app.corpId ?? 'dingschool', appKey: app.appKey, appSecret: app.appSecret }, b),
  );
