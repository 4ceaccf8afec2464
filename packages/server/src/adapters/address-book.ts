/**
 * Home-school address books (WeCom 家校沟通, DingTalk K12 家校通讯录) as one vendor-neutral shape, and
 * the calls both vendors' server APIs share: an access token from `gettoken` kept until shortly
 * before its `expires_in` ends (and fetched again when the API says it expired or is invalid), and a
 * call refused for frequency retried after a growing wait. Failures carry the vendor's errcode and
 * errmsg. services/edu/roster/book-roster.ts turns a book into a roster.
 */
import { createHash } from 'node:crypto';
import { fetchText, jsonObject } from './provider-http.ts';

export interface BookClass {
  id: string;
  title: string;
  /** The grade department's name (一年级, 初二…), for the grade when no standard grade is given. */
  gradeName: string;
  /** WeCom's `standard_grade` of the grade department, when it gives one. */
  standardGrade: number | null;
  /** The grade graduated (WeCom `is_graduated`). */
  graduated: boolean;
}

export interface BookPupil {
  id: string;
  name: string;
  classId: string;
}

export interface BookTeacher {
  id: string;
  name: string;
  /** '' when the app may not read it. */
  phone: string;
  email: string;
  classes: { classId: string; head: boolean }[];
}

export interface BookGuardian {
  id: string;
  pupilId: string;
  /** The vendor's word or code (爸爸, 妈妈, 爷爷…; F, M…). */
  relation: string;
  /** '' when the app may not read it (WeCom: third-party apps never do). */
  phone: string;
}

export interface Book {
  schoolName: string;
  classes: BookClass[];
  pupils: BookPupil[];
  teachers: BookTeacher[];
  guardians: BookGuardian[];
  /** Calls made, token fetches included, and calls retried after a frequency refusal. */
  calls: number;
  retried: number;
}

/** The app a school authorised: WeCom's corpid and corpsecret, DingTalk's appkey and appsecret. */
export interface BookApp {
  base: string;
  appId: string;
  secret: string;
}

/** The vendor refused a call (errcode ≠ 0), or answered what is not its protocol. */
export class BookApiError extends Error {
  constructor(
    readonly errcode: number,
    message: string,
  ) {
    super(message);
    this.name = 'BookApiError';
  }
}

export interface VendorRules {
  vendor: string;
  /** Error codes of an expired or invalid access token: fetched again, once a call. */
  tokenErrors: readonly number[];
  /** Error codes of a frequency limit (and "system busy"): retried after RETRY_WAITS_MS. */
  busyErrors: readonly number[];
  /** The `gettoken` address for this app. */
  tokenUrl: (app: BookApp) => string;
}

/** The waits before each retry of a refused call: 6 tries over about 6 seconds, then the sync fails. */
const RETRY_WAITS_MS = [100, 200, 400, 800, 1600, 3200];
/** A token is fetched again this long before its `expires_in` ends (calls in flight must not carry a dead one). */
const TOKEN_MARGIN_MS = 5 * 60_000;
const TIMEOUT_MS = 15_000;

/** Tokens of this process, by vendor, base and app: a scheduled sync reuses the last one while it lasts. */
const tokens = new Map<string, { token: string; until: number }>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const errcodeOf = (body: Record<string, unknown>) => (typeof body.errcode === 'number' ? body.errcode : 0);

/** A client of one app of one vendor: `call(path, query, body?)` answers the JSON object of a success. */
export const bookClient = (rules: VendorRules, app: BookApp, now: () => number) => {
  // Each app of an organisation has its own secret and its own token (the book's app, the sign-in's app).
  const key = `${rules.vendor} ${app.base} ${app.appId} ${createHash('sha256').update(app.secret).digest('base64url')}`;
  const counts = { calls: 0, retried: 0 };
  const fetchJson = async (url: string, init: RequestInit) => {
    counts.calls++;
    const answer = await fetchText(url, init, TIMEOUT_MS);
    const body = jsonObject(answer.text);
    if (!body) throw new BookApiError(-1, `${rules.vendor} answered HTTP ${answer.status} without JSON`);
    return body;
  };
  const token = async () => {
    const kept = tokens.get(key);
    if (kept && kept.until > now()) return kept.token;
    for (let attempt = 0; ; attempt++) {
      const body = await fetchJson(rules.tokenUrl(app), { method: 'GET' });
      const errcode = errcodeOf(body);
      if (errcode !== 0 && rules.busyErrors.includes(errcode) && attempt < RETRY_WAITS_MS.length) {
        counts.retried++;
        await sleep(RETRY_WAITS_MS[attempt] as number);
        continue;
      }
      if (errcode !== 0 || typeof body.access_token !== 'string') {
        throw new BookApiError(errcode, `${rules.vendor} gettoken: ${errcode} ${String(body.errmsg ?? '')}`);
      }
      const seconds = typeof body.expires_in === 'number' ? body.expires_in : 7200;
      tokens.set(key, { token: body.access_token, until: now() + seconds * 1000 - TOKEN_MARGIN_MS });
      return body.access_token;
    }
  };
  const call = async (path: string, query: Record<string, string>, body?: object) => {
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const access = await token();
      const url = `${app.base}${path}?${new URLSearchParams({ access_token: access, ...query })}`;
      const answer = await fetchJson(
        url,
        body === undefined
          ? { method: 'GET' }
          : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      );
      const errcode = errcodeOf(answer);
      if (errcode === 0) return answer;
      if (rules.tokenErrors.includes(errcode) && !refreshed) {
        refreshed = true;
        tokens.delete(key);
        continue;
      }
      if (rules.busyErrors.includes(errcode) && attempt < RETRY_WAITS_MS.length) {
        counts.retried++;
        await sleep(RETRY_WAITS_MS[attempt] as number);
        continue;
      }
      throw new BookApiError(errcode, `${rules.vendor} ${path}: ${errcode} ${String(answer.errmsg ?? '')}`);
    }
  };
  return { call, counts };
};

/** A list field of an answer, its records only. */
export const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v))
    : [];

export const textOf = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
