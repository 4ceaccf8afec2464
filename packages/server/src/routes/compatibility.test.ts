/**
 * The wire contract existing clients rely on (compatibility.md), replayed the way they send it: exact
 * methods and paths (the accounts token paths included), `Content-Type: application/json` on GETs and
 * on empty POSTs, `Authorization: <type> <token>`, the `authorization` cookie under another spelling
 * of its name. Each answer is checked field by field and type by type, for a brand-new account that has
 * filled in nothing. Requests go out through node:http so nothing is added or normalised on the way.
 */
import { request as httpRequest } from 'node:http';
import { nextPhone, PASSWORD, PID } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const { server } = useTestServer();

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as JSON (undefined when empty). */
  json: unknown;
}

/** One request, byte for byte: the method, path, headers and body given, nothing else but Host and Content-Length. */
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text,
            json: text ? JSON.parse(text) : undefined,
          });
        });
      },
    );
    outgoing.on('error', reject);
    if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });

const JSON_TYPE = { 'Content-Type': 'application/json' };
/** What the platform's SDK puts on every call. */
const SDK_HEADERS = { ...JSON_TYPE, 'Product-Code': PID, pid: PID, Platform: 'web', 'SDK-Account-Version': '0.16.2' };
const A = '/tiger/v3/web/accounts';

// ---- Shapes, as compatibility.md states them ----------------------------------------------------

type Kind = 'integer' | 'string' | 'nonEmptyString' | 'boolean' | 'sex' | 'maskedPhone' | Shape | [Shape];
interface Shape {
  [field: string]: Kind;
}

const kindOk = (kind: Exclude<Kind, Shape | [Shape]>, value: unknown): boolean => {
  switch (kind) {
    case 'integer':
      return Number.isInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'nonEmptyString':
      return typeof value === 'string' && value !== '';
    case 'boolean':
      return typeof value === 'boolean';
    case 'sex':
      return value === 0 || value === 1;
    case 'maskedPhone':
      return typeof value === 'string' && /^\d{3}\*{4}\d{4}$/.test(value);
  }
};

/** Every field of `shape` present with its type; returns the problems, by path, so a failure names them all. */
const problems = (value: unknown, shape: Kind, path = '$'): string[] => {
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path}: expected an array, got ${JSON.stringify(value)}`];
    return value.flatMap((item, i) => problems(item, shape[0], `${path}[${i}]`));
  }
  if (typeof shape === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return [`${path}: expected an object, got ${JSON.stringify(value)}`];
    }
    return Object.entries(shape).flatMap(([field, kind]) =>
      field in value
        ? problems((value as Record<string, unknown>)[field], kind, `${path}.${field}`)
        : [`${path}.${field}: missing`],
    );
  }
  return kindOk(shape, value) ? [] : [`${path}: expected ${shape}, got ${JSON.stringify(value)}`];
};

const expectShape = (value: unknown, shape: Kind) => expect(problems(value, shape)).toEqual([]);

const USER_INFO: Shape = {
  id: 'integer',
  nickname: 'nonEmptyString',
  avatar_url: 'string',
  fullname: 'string',
  sex: 'sex',
  birthday: 'integer',
  qq: 'string',
  description: 'string',
  grade: 'integer',
  grade_desc: 'string',
};
const AUTH: Shape = {
  email: 'string',
  phone_number: 'maskedPhone',
  has_password: 'boolean',
  is_weak_password: 'boolean',
};
const TOKEN_SET: Shape = {
  access: { token: 'nonEmptyString', type: 'nonEmptyString', expires_in: 'integer' },
  refresh: { token: 'nonEmptyString', expires_in: 'integer' },
};
const ERROR: Shape = {
  error_code: 'nonEmptyString',
  error_message: 'nonEmptyString',
  error_number: 'integer',
  error_category: 'nonEmptyString',
  log_uuid: 'nonEmptyString',
};

/** The HttpOnly `authorization` cookie a login answer sets, and its value. */
const authCookie = (answer: Raw) => {
  const lines = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
  const line = lines.find((l) => l.toLowerCase().startsWith('authorization='));
  return line === undefined ? undefined : { value: line.slice('authorization='.length).split(';')[0] ?? '', line };
};

/** A login answer: `{user_info, auth}` typed, a brand-new account's unset fields as 0, the cookie equal to the access token. */
const expectLoginAnswer = (answer: Raw, tokenKind: 'string' | 'set') => {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expectShape(answer.json, {
    user_info: USER_INFO,
    auth: { ...AUTH, token: tokenKind === 'set' ? TOKEN_SET : 'nonEmptyString' },
  });
  const body = answer.json as { user_info: Record<string, unknown>; auth: { token: unknown } };
  const access =
    tokenKind === 'set'
      ? (body.auth.token as { access: { token: string; type: string } }).access
      : { token: body.auth.token as string, type: 'Bearer' };
  const cookie = authCookie(answer);
  expect(cookie?.value).toBe(access.token);
  expect(cookie?.line).toMatch(/HttpOnly/i);
  return { body, access };
};

const NOTHING_FILLED_IN = { sex: 0, birthday: 0, grade: 0, grade_desc: '', fullname: '', qq: '', description: '' };

describe('what existing clients send, and the shapes they read back (compatibility.md)', () => {
  it('a brand-new account: sign-up, logins, profile, privacy, oauths, grade list, agreements, tokens, logout', async () => {
    const phone = nextPhone();

    // Sign-up: the code, then register (no Auth-Version: the token is a plain string).
    const sent = await send(
      'POST',
      `${A}/captcha/register/phone/with-agreement`,
      SDK_HEADERS,
      JSON.stringify({ phone_number: phone, pid: PID }),
    );
    expect(sent.status, sent.text).toBe(204);
    const captcha = (await server.lastCode(phone)) ?? '';
    const registered = await send(
      'POST',
      `${A}/register/phone/with-agreement`,
      SDK_HEADERS,
      JSON.stringify({ phone_number: phone, captcha, password: PASSWORD, agreement_ids: [-1], pid: PID }),
    );
    const signUp = expectLoginAnswer(registered, 'string');
    expect(signUp.body.user_info).toMatchObject(NOTHING_FILLED_IN);

    // Password login with Auth-Version: the token set.
    const login = await send(
      'POST',
      `${A}/login`,
      { ...SDK_HEADERS, 'Auth-Version': '1' },
      JSON.stringify({ identity: phone, password: PASSWORD, pid: PID, agreement_ids: [-1] }),
    );
    const withSet = expectLoginAnswer(login, 'set');
    expect(withSet.body.user_info).toEqual(signUp.body.user_info);
    const set = (withSet.body.auth.token as { refresh: { token: string } }).refresh;
    const bearer = { ...SDK_HEADERS, Authorization: `${withSet.access.type} ${withSet.access.token}` };

    // GETs carry Content-Type: application/json and no body.
    const profile = await send('GET', `${A}/profile`, bearer);
    expect(profile.status, profile.text).toBe(200);
    expectShape(profile.json, USER_INFO);
    expect(profile.json).toMatchObject({ ...NOTHING_FILLED_IN, id: signUp.body.user_info.id });

    // The cookie alone, its name spelled another way, authenticates as well.
    const byCookie = await send('GET', `${A}/profile`, {
      ...SDK_HEADERS,
      Cookie: `Authorization=${signUp.access.token}`,
    });
    expect(byCookie.status, byCookie.text).toBe(200);
    expect(byCookie.json).toEqual(profile.json);

    const privacy = await send('GET', `${A}/privacy`, bearer);
    expect(privacy.status, privacy.text).toBe(200);
    expectShape(privacy.json, {
      username: 'string',
      email: 'string',
      phone_number: 'maskedPhone',
      has_password: 'boolean',
    });

    const oauths = await send('GET', `${A}/oauths`, bearer);
    expect(oauths.status, oauths.text).toBe(200);
    expectShape(oauths.json, [{ id: 'integer', name: 'nonEmptyString', nickname: 'string', is_bound: 'boolean' }]);

    const grades = await send('GET', `${A}/grade-list`, SDK_HEADERS);
    expect(grades.status, grades.text).toBe(200);
    expectShape(grades.json, [
      { stage: 'nonEmptyString', gradeList: [{ grade: 'integer', desc: 'nonEmptyString', recommended: 'boolean' }] },
    ]);
    expect((grades.json as unknown[]).length).toBeGreaterThan(0);

    for (const path of ['agreements', 'agreements/need-sign']) {
      const agreements = await send('GET', `${A}/${path}`, bearer);
      expect(agreements.status, agreements.text).toBe(200);
      expectShape(agreements.json, [{ id: 'integer' }]);
    }

    // Tokens, at the accounts base: refresh with {refresh_token}; convert an empty POST with the legacy
    // cookie value as Bearer; delete.
    const refreshed = await send(
      'PUT',
      `${A}/tokens/refresh`,
      SDK_HEADERS,
      JSON.stringify({ refresh_token: set.token }),
    );
    expect(refreshed.status, refreshed.text).toBe(200);
    expectShape(refreshed.json, TOKEN_SET);
    const converted = await send('POST', `${A}/tokens/convert`, {
      ...SDK_HEADERS,
      Authorization: `Bearer ${signUp.access.token}`,
    });
    expect(converted.status, converted.text).toBe(200);
    expectShape(converted.json, TOKEN_SET);
    const convertedSet = converted.json as { access: { token: string; type: string } };
    const deleted = await send('DELETE', `${A}/tokens`, {
      ...SDK_HEADERS,
      Authorization: `${convertedSet.access.type} ${convertedSet.access.token}`,
    });
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe('');

    // That ended the sign-up's session (convert keeps the session, delete ends it).
    const ended = await send('GET', `${A}/profile`, { ...SDK_HEADERS, Authorization: `Bearer ${signUp.access.token}` });
    expect(ended.json).toMatchObject({ error_code: 'E_0' });

    // Logout of the login's session: an empty POST with Content-Type: application/json, by the cookie.
    const cookieOnly = { ...SDK_HEADERS, Cookie: `authorization=${withSet.access.token}` };
    const logout = await send('POST', `${A}/logout`, cookieOnly);
    expect(logout.status, logout.text).toBe(204);
    expect(authCookie(logout)?.value).toBe('');

    // After it: E_0 with the five error fields, for the cookie and the header alike.
    const rotated = (refreshed.json as { refresh: { token: string } }).refresh.token;
    const stale = await send('PUT', `${A}/tokens/refresh`, SDK_HEADERS, JSON.stringify({ refresh_token: rotated }));
    expect(stale.status).toBe(401);
    expectShape(stale.json, ERROR);
    expect(stale.json).toMatchObject({ error_code: '10000001', error_number: 44 });
    for (const headers of [cookieOnly, bearer]) {
      const refused = await send('GET', `${A}/profile`, headers);
      expect(refused.status).toBe(403);
      expectShape(refused.json, ERROR);
      expect(refused.json).toMatchObject({ error_code: 'E_0', error_number: 11 });
    }
  });

  it('the silent phone login adds is_first_login; a first sign-in there is a new account with nothing filled in', async () => {
    const phone = nextPhone();
    const sent = await send(
      'POST',
      `${A}/captcha/login/silence`,
      SDK_HEADERS,
      JSON.stringify({ phone_number: phone, pid: PID }),
    );
    expect(sent.status, sent.text).toBe(204);
    const captcha = (await server.lastCode(phone)) ?? '';
    const answer = await send(
      'POST',
      `${A}/phone/login/silence`,
      SDK_HEADERS,
      JSON.stringify({ phone_number: phone, captcha, pid: PID }),
    );
    const { body } = expectLoginAnswer(answer, 'string');
    expect(body).toMatchObject({ is_first_login: true, user_info: NOTHING_FILLED_IN });
    expect(body.user_info.nickname).toMatch(/^用户\d{8}$/);
  });

  it('an error answer has the five fields, typed (wrong password: AC3_2)', async () => {
    const answer = await send(
      'POST',
      `${A}/login`,
      SDK_HEADERS,
      JSON.stringify({ identity: nextPhone(), password: 'Wrong-pass1', pid: PID }),
    );
    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expectShape(answer.json, ERROR);
    expect(answer.json).toMatchObject({ error_code: 'AC3_2', error_number: 16 });
  });

  it('a with-token call without any credential is 403 E_0, JSON, five fields', async () => {
    const answer = await send('GET', `${A}/profile`, JSON_TYPE);
    expect(answer.status).toBe(403);
    expectShape(answer.json, ERROR);
    expect(answer.json).toMatchObject({ error_code: 'E_0', error_category: expect.any(String) });
  });

  it('the old token paths still answer (EduPass SDK builds before the move)', async () => {
    const missing = await send(
      'PUT',
      '/tiger/v3/web/tokens/refresh',
      SDK_HEADERS,
      JSON.stringify({ refresh_token: 'x' }),
    );
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ error_code: '10000001', error_number: 44 });
  });
});
