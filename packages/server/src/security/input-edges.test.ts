/**
 * Hard input edges on every route of the protocol table, on SQLite and PostgreSQL: a NUL or other
 * control character in any text field, and an integer past its column, are refused with E_1 before
 * any query runs (PostgreSQL answered 500 to both); names and self-descriptions also refuse
 * zero-width and bidi characters; and the framework's own refusals (413, 414, 415, 408, 431, bad
 * JSON, malformed requests) answer in the catalogue's wire shape.
 */
import { connect } from 'node:net';
import { ClientCode, type FieldSpec, type Fields, INT_COLUMN, type RouteSpec, routes } from '@edupass/protocol';
import { A, expectError, sessionFor, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { plausibleValue } from '@edupass/test-kit/fuzz-inputs';
import { startTestServer, type TestServer, useTestServer } from '@edupass/test-kit/harness';
import type { Answer } from '@edupass/test-kit/http-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from '../http/framework-errors.ts';
import { integerBounds } from '../http/parse-fields.ts';
import { findUserByPhone } from '../store/account/users.ts';

const { server, call } = useTestServer();
let userId: number;
let operatorId: number;
beforeAll(async () => {
  userId = (await signUp(server)).userId;
  // Every duty: each admin route's fields are tried (operator-duties.ts decides who may call which).
  const operator = await signInOperator(server, undefined, ['system', 'security', 'auditor']);
  operatorId = (await findUserByPhone(server.app.ctx.db, operator.phone))?.id ?? 0;
});

type Part = 'body' | 'query' | 'params';
const table = Object.entries(routes as Record<string, RouteSpec>);

/** Every (route, part, field) of the table whose field has the given type. */
const fieldsOfType = (types: FieldSpec['type'][]) =>
  table.flatMap(([name, spec]) =>
    (['body', 'query', 'params'] as const).flatMap((part) =>
      Object.entries((spec[part] ?? {}) as Fields)
        .filter(([, field]) => types.includes(field.type))
        .map(([field, fieldSpec]) => [`${name} ${part}.${field}`, name, spec, part, field, fieldSpec] as const),
    ),
  );

const plausible = (fields: Fields | undefined) =>
  Object.fromEntries(Object.entries(fields ?? {}).map(([name, spec]) => [name, plausibleValue(spec)]));

/** The route called as its own kind of caller, every field plausible but `field` of `part`, which is `value`. */
const callWith = async (spec: RouteSpec, part: Part, field: string, value: unknown): Promise<Answer> => {
  const input = { body: plausible(spec.body), query: plausible(spec.query), params: plausible(spec.params) };
  input[part][field] = value;
  const path = spec.path.replace(/:([a-z_]+)/gi, (_, name: string) => encodeURIComponent(String(input.params[name])));
  const query = new URLSearchParams(
    Object.entries(input.query).map(([key, item]) => [key, typeof item === 'string' ? item : JSON.stringify(item)]),
  );
  const token =
    spec.auth === 'operator'
      ? await sessionFor(server, operatorId)
      : spec.auth === 'none'
        ? undefined
        : await sessionFor(server, userId);
  return call(
    spec.method,
    `${path}${query.size > 0 ? `?${query}` : ''}`,
    spec.method === 'GET' ? undefined : input.body,
    {
      ...(token ? { token } : {}),
    },
  );
};

/** E_1 naming the field, or the field's own §5 rule failing (its client number and message). */
const expectFieldRefused = (answer: Answer, field: string, fieldSpec: FieldSpec) => {
  expectError(answer, 'E_1');
  const body = answer.body as { error_message: string; error_number: number };
  if (body.error_number === ClientCode.INVALID_REQUEST) expect(body.error_message).toContain(`"${field}"`);
  else expect(fieldSpec.rule, `${field}: ${body.error_message}`).toBeDefined();
};

describe('text fields', () => {
  const textFields = fieldsOfType(['string', 'string[]', 'any']);

  it.each(textFields)(
    '%s refuses NUL and other control characters with E_1',
    async (_, _name, spec, part, field, fieldSpec) => {
      // A URL carries only well-formed text (a lone surrogate arrives as U+FFFD), so those go in bodies only.
      const controls = ['\u0000', '\u001b[2J', '\u007f', '\u0085', ...(part === 'body' ? ['\ud800'] : [])];
      for (const control of controls) {
        const text = `edu${control}pass`;
        const value = fieldSpec.type === 'string[]' ? [text] : fieldSpec.type === 'any' ? { key: text } : text;
        // Path parameters and query values travel as text; a GET has no body.
        if (part === 'body' && spec.method === 'GET') continue;
        expectFieldRefused(await callWith(spec, part, field, value), field, fieldSpec);
      }
    },
  );

  it('nickname refuses zero-width and bidi characters (INVALID_NICKNAME)', async () => {
    const token = await sessionFor(server, userId);
    for (const nickname of ['nick\u200bname', 'nick\u202ename', '\u2066nick', 'nick\u0000', 'nick\ufeff']) {
      const answer = await call('PATCH', `${A}/info`, { nickname }, { token });
      expectError(answer, 'E_1', ClientCode.INVALID_NICKNAME);
    }
    expect((await call('PATCH', `${A}/info`, { nickname: '小明同学' }, { token })).status).toBe(204);
  });

  it('fullname and description refuse them too (INVALID_FULLNAME, INVALID_DESCRIPTION)', async () => {
    const token = await sessionFor(server, userId);
    for (const fullname of ['张\u200b三', 'Zhang\u202eSan', '张三\u0000']) {
      expectError(await call('PATCH', `${A}/info`, { fullname }, { token }), 'E_1', ClientCode.INVALID_FULLNAME);
    }
    for (const description of ['hi\u200bthere', 'hi \u202egnp.exe', 'line\u2028break', 'x\u0000']) {
      const answer = await call('PATCH', `${A}/info`, { description }, { token });
      expectError(answer, 'E_1', ClientCode.INVALID_DESCRIPTION);
    }
    expect((await call('PATCH', `${A}/info`, { description: '喜欢数学 and music!' }, { token })).status).toBe(204);
  });

  it('multi-line text (an agreement) keeps its line breaks and tabs', async () => {
    const token = await sessionFor(server, operatorId);
    const answer = await call(
      'POST',
      '/admin/agreements',
      { code: 'edges', title: 'Edges', content: '# Terms\n\n\tOne.\r\nTwo.' },
      { token },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });
});

describe('integer fields', () => {
  const integerFields = fieldsOfType(['integer', 'integer[]']);
  const wide = (fieldSpec: FieldSpec) => integerBounds(fieldSpec).max > INT_COLUMN.max;

  it.each(integerFields)(
    '%s: past a 32-bit column is E_1 unless the field is wider, never 500',
    async (_, _name, spec, part, field, fieldSpec) => {
      if (part === 'body' && spec.method === 'GET') return;
      for (const n of [INT_COLUMN.max + 1, INT_COLUMN.min - 1, 2 ** 53 - 1]) {
        const value = fieldSpec.type === 'integer[]' ? [n] : n;
        const answer = await callWith(spec, part, field, value);
        if (wide(fieldSpec)) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
        else expectFieldRefused(answer, field, fieldSpec);
      }
    },
  );

  it('the anonymous login with agreement ids past the column is E_1, not 500', async () => {
    const answer = await call('POST', `${A}/login`, {
      identity: '13800138000',
      password: 'Secret123',
      pid: 'edupass',
      agreement_ids: [2 ** 31],
    });
    expectError(answer, 'E_1');
    expect(answer.body).toMatchObject({
      error_message: 'Field "agreement_ids" must hold integers from -2147483648 to 2147483647.',
    });
  });

  it('a wide field (birthday, unix seconds) takes a date before 1901 and refuses one past its range', async () => {
    const token = await sessionFor(server, userId);
    expect((await call('PATCH', `${A}/info`, { birthday: -2_300_000_000 }, { token })).status).toBe(204);
    expectError(await call('PATCH', `${A}/info`, { birthday: -1e12 }, { token }), 'E_1');
  });
});

/** Sends raw bytes and reads the whole answer (the server closes after a refusal). */
const rawExchange = (url: string, request: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', (error) => (received ? resolve(received) : reject(error)));
    socket.on('close', () => resolve(received));
    socket.write(request);
  });

/** Status and JSON body of a raw HTTP answer. */
const parseRaw = (raw: string) => {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
  return { status, body, headers: new Headers() } satisfies Answer;
};

describe('framework refusals answer in the catalogue shape', () => {
  it('414 for a URL past the limit', async () => {
    const answer = await call('GET', `${A}/profile?pad=${'a'.repeat(MAX_URL_LENGTH)}`);
    expect(answer.status).toBe(414);
    expect(answer).toMatchObject({ body: { error_code: 'E_1', error_category: 'request' } });
    expectShape(answer);
  });

  it('431 for headers past Node’s limit', async () => {
    const answer = await call('GET', `${A}/profile`, undefined, { headers: { 'x-pad': 'a'.repeat(20_000) } });
    expect(answer.status).toBe(431);
    expectShape(answer);
  });

  it('413 for a body past the limit, 415 for another media type, 400 for bad JSON', async () => {
    const big = await call('POST', `${A}/login`, { identity: 'x'.repeat(20_000) });
    expect(big.status).toBe(413);
    expectShape(big);
    const media = await call('POST', `${A}/login`, undefined, { raw: 'a=1', headers: { 'content-type': 'text/xml' } });
    expect(media.status).toBe(415);
    expectShape(media);
    const json = await call('POST', `${A}/login`, undefined, { raw: '{"identity":' });
    expectError(json, 'E_1');
  });

  it('400 for a path segment past the router’s limit', async () => {
    expectError(await call('GET', `/admin/users/${'9'.repeat(500)}`), 'E_1');
  });

  it('400 for a request line Node cannot parse', async () => {
    const answer = parseRaw(await rawExchange(server.url, 'GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(answer.status).toBe(400);
    expectShape(answer);
  });

  describe('with a short request timeout', () => {
    let slow: TestServer;
    beforeAll(async () => {
      slow = await startTestServer({}, { requestTimeoutMs: 500 });
    });
    afterAll(() => slow?.close());

    it('408 with REQUEST_TIMEOUT for a request whose headers never end', async () => {
      const raw = await rawExchange(slow.url, `GET ${A}/profile HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n`);
      const answer = parseRaw(raw);
      expect(answer.status).toBe(408);
      expectShape(answer);
      expect(answer.body).toMatchObject({ error_code: 'E_1', error_number: ClientCode.REQUEST_TIMEOUT });
    });
  });
});

function expectShape(answer: Answer) {
  expect(answer.body).toEqual({
    error_code: 'E_1',
    error_message: expect.any(String),
    error_number: expect.any(Number),
    error_category: 'request',
    log_uuid: expect.any(String),
  });
}
