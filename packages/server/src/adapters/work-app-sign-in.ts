/**
 * Who signed in with a school's work app, asked of the vendor with the code its sign-in handed back
 * (services/edu/federation/workapp/ builds the addresses the browser goes to):
 *
 * - WeCom (QR-code web login, and OAuth inside the WeCom app): `GET /cgi-bin/auth/getuserinfo
 *   ?access_token&code` with the app's token (`/cgi-bin/gettoken?corpid&corpsecret`): a member of the
 *   organisation answers `userid`; a home-school parent or pupil answers `parent_userid` or
 *   `student_userid` (assumed field names, as the school API's lists name them: docs/education.md); a
 *   person outside the organisation answers only `openid` / `external_userid`, which is not accepted.
 *   40029: the code is invalid (or used, or older than 5 minutes).
 * - DingTalk QR-code login: `POST {api}/v1.0/oauth2/userAccessToken` {clientId, clientSecret, code,
 *   grantType: authorization_code} → the person's token; `GET {api}/v1.0/contact/users/me` with it in
 *   `x-acs-dingtalk-access-token` → `unionId`; then the organisation's `POST /topapi/user/getbyunionid`
 *   {unionid} → `result.userid` (60121: not in this organisation).
 * - DingTalk inside the app (free login): the page's JSAPI code → `POST /topapi/v2/user/getuserinfo`
 *   {code} → `result.userid` (40078: the code is unknown or used).
 *
 * Tokens are fetched, kept and fetched again as the address books' are (address-book.ts).
 */
import { BookApiError, bookClient, type VendorRules } from './address-book.ts';
import { fetchText, jsonObject } from './provider-http.ts';

const TIMEOUT_MS = 10_000;

export interface WorkAppCredentials {
  /** WeCom: the organisation's corpid. DingTalk: the app's Client ID (AppKey). */
  appId: string;
  secret: string;
}

/** The person the vendor named, as its organisation knows them, and which of its books says so. */
export interface WorkAppPerson {
  userid: string;
  /** `member`: a member of the organisation (staff, or DingTalk's K12 people); else WeCom's home-school kinds. */
  kind: 'member' | 'parent' | 'student';
  name: string;
}

/** The vendor refused the code or the person (logged with its errcode; the sign-in is refused). */
export class WorkAppRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkAppRefused';
  }
}

const WECOM: VendorRules = {
  vendor: 'WeCom',
  tokenErrors: [40014, 42001],
  busyErrors: [45009, 45033, -1],
  tokenUrl: (app) =>
    `${app.base}/cgi-bin/gettoken?${new URLSearchParams({ corpid: app.appId, corpsecret: app.secret })}`,
};

const DINGTALK: VendorRules = {
  vendor: 'DingTalk',
  tokenErrors: [40014, 42001],
  busyErrors: [90018, 90002, -1],
  tokenUrl: (app) => `${app.base}/gettoken?${new URLSearchParams({ appkey: app.appId, appsecret: app.secret })}`,
};

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** A vendor's refusal of the code or the person as WorkAppRefused; a token or busy failure stays what it is. */
const refusedOn = async <T>(codes: readonly number[], step: () => Promise<T>): Promise<T> => {
  try {
    return await step();
  } catch (error) {
    if (error instanceof BookApiError && codes.includes(error.errcode)) throw new WorkAppRefused(error.message);
    throw error;
  }
};

/** WeCom: the person a code names (QR login or in-app OAuth alike). */
export const wecomPerson = async (
  base: string,
  app: WorkAppCredentials,
  code: string,
  now: () => number,
): Promise<WorkAppPerson> => {
  const { call } = bookClient(WECOM, { base, ...app }, now);
  // 40029 invalid code; 50001 the redirect address is not the app's trusted domain.
  const answer = await refusedOn([40029, 50001], () => call('/cgi-bin/auth/getuserinfo', { code }));
  const userid = text(answer.userid) || text(answer.UserId);
  if (userid) return { userid, kind: 'member', name: '' };
  if (text(answer.parent_userid)) return { userid: text(answer.parent_userid), kind: 'parent', name: '' };
  if (text(answer.student_userid)) return { userid: text(answer.student_userid), kind: 'student', name: '' };
  throw new WorkAppRefused('WeCom named a person outside the organisation (openid or external_userid only)');
};

/** DingTalk in the app: the person the JSAPI's free-login code names. */
export const dingtalkInAppPerson = async (
  base: string,
  app: WorkAppCredentials,
  code: string,
  now: () => number,
): Promise<WorkAppPerson> => {
  const { call } = bookClient(DINGTALK, { base, ...app }, now);
  const answer = await refusedOn([40078], () => call('/topapi/v2/user/getuserinfo', {}, { code }));
  const result = (answer.result ?? {}) as Record<string, unknown>;
  const userid = text(result.userid);
  if (!userid) throw new WorkAppRefused('DingTalk named no userid for the free-login code');
  return { userid, kind: 'member', name: text(result.name) };
};

/** One call of DingTalk's newer API: its JSON answer, or its `{code, message}` refusal. */
const openApi = async (url: string, init: RequestInit) => {
  const answer = await fetchText(url, init, TIMEOUT_MS);
  const body = jsonObject(answer.text);
  if (!body) throw new BookApiError(-1, `DingTalk answered HTTP ${answer.status} without JSON`);
  if (answer.status >= 400) {
    const message = `DingTalk ${new URL(url).pathname}: ${text(body.code)} ${text(body.message)}`;
    // A 4xx names the code or the app (an unknown, used or expired code; a wrong client); a 5xx is an outage.
    if (answer.status < 500) throw new WorkAppRefused(message);
    throw new BookApiError(-1, message);
  }
  return body;
};

/** DingTalk's QR-code login: the code → the person's unionId → their userid in the school's organisation. */
export const dingtalkQrPerson = async (
  bases: { api: string; oapi: string },
  app: WorkAppCredentials,
  code: string,
  now: () => number,
): Promise<WorkAppPerson> => {
  const token = await openApi(`${bases.api}/v1.0/oauth2/userAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: app.appId, clientSecret: app.secret, code, grantType: 'authorization_code' }),
  });
  const me = await openApi(`${bases.api}/v1.0/contact/users/me`, {
    method: 'GET',
    headers: { 'x-acs-dingtalk-access-token': text(token.accessToken) },
  });
  const unionid = text(me.unionId);
  if (!unionid) throw new WorkAppRefused('DingTalk named no unionId');
  const { call } = bookClient(DINGTALK, { base: bases.oapi, ...app }, now);
  // 60121: the person is not in the school's organisation.
  const answer = await refusedOn([60121], () => call('/topapi/user/getbyunionid', {}, { unionid }));
  const userid = text(((answer.result ?? {}) as Record<string, unknown>).userid);
  if (!userid) throw new WorkAppRefused('DingTalk named no userid for the unionId');
  return { userid, kind: 'member', name: text(me.nick) };
};
