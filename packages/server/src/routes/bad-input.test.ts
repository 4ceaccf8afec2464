/**
 * Bad input on every POST/PATCH/PUT/DELETE account and token route: each is answered with a
 * catalogue code (E_1 where the request itself is wrong), never a 500.
 */
import { type FieldSpec, isServerCode, type RouteSpec } from '@edupass/protocol';
import { accountTableRoutes, expectError, sessionFor, sessionForRoute, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import type { Answer } from '@edupass/test-kit/http-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call } = useTestServer();
let userId: number;
beforeAll(async () => {
  userId = (await signUp(server)).userId;
});

const bodyRoutes = accountTableRoutes.filter(([, spec]) => spec.method !== 'GET');

/**
 * A signed-in caller; a fresh session for each with-token call, as some junk bodies are valid logouts,
 * and a fresh account for the account deletion, which any body carries out.
 */
const send = async (
  spec: RouteSpec,
  body: unknown,
  options: { raw?: string; headers?: Record<string, string> } = {},
) => {
  return call(spec.method, spec.path, body, {
    ...options,
    ...(spec.auth === 'token' ? { token: await sessionForRoute(server, spec, userId) } : {}),
  });
};

const LIFTS_BY_ITSELF = ['AC3_23', 'AC3_48', 'E_5'];

/** Under 500, and a catalogue error with the full wire shape when not a success. */
const expectCatalogued = (answer: Answer, what: string) => {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
  if (answer.status >= 300) {
    const body = answer.body as Record<string, unknown>;
    expect(isServerCode(body?.error_code), `${what}: ${JSON.stringify(body)}`).toBe(true);
    expect(body).toEqual({
      error_code: expect.any(String),
      error_message: expect.any(String),
      error_number: expect.any(Number),
      error_category: expect.any(String),
      log_uuid: expect.any(String),
      // A refusal that lifts by itself (a lock met by junk guesses, a limit) says when.
      ...(LIFTS_BY_ITSELF.includes(String(body.error_code)) && 'retry_after' in body
        ? { retry_after: expect.any(Number) }
        : {}),
    });
  }
};

const wrongTypes = (spec: FieldSpec): unknown[] => {
  switch (spec.type) {
    case 'string':
      // Objects whose toString/valueOf are not functions cannot even be printed in a message.
      return [12345, { a: 1 }, ['x'], true, { toString: '' }, [{ toString: 1 }]];
    case 'integer':
      return ['abc', 1.5, [1], 2 ** 60, { valueOf: 'x', toString: null }];
    case 'number':
      return ['abc', {}];
    case 'boolean':
      return ['true', 1];
    case 'integer[]':
      return ['1', [1.5], ['a'], [null], { 0: 1 }];
    case 'string[]':
      return ['x', [1], [{}]];
    case 'any':
      return [];
  }
};

const JUNK = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '💥💥💥',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00%ff',
  '１３８００１３８０００',
  '\u202e13800138000',
];

describe.each(bodyRoutes)('%s', (name, spec) => {
  const fields = Object.entries(spec.body ?? {});
  const required = fields.some(([, field]) => field.required);

  it('a body without its required fields is E_1 (or accepted when none is required)', async () => {
    const answer = await send(spec, {});
    if (required) expectError(answer, 'E_1');
    else expectCatalogued(answer, name);
  });

  it('every field of a wrong type is E_1', async () => {
    for (const [field, fieldSpec] of fields) {
      for (const value of wrongTypes(fieldSpec)) {
        const answer = await send(spec, { [field]: value });
        expect(answer.body, `${field}=${JSON.stringify(value)}`).toMatchObject({ error_code: 'E_1' });
        expectError(answer, 'E_1');
      }
    }
  });

  it('an oversized string or array field is E_1', async () => {
    for (const [field, fieldSpec] of fields) {
      const limit = fieldSpec.maxLength ?? 100;
      const value =
        fieldSpec.type === 'string'
          ? 'x'.repeat(limit + 1)
          : fieldSpec.type === 'integer[]'
            ? Array.from({ length: Math.min(limit, 100) + 1 }, (_, i) => i)
            : fieldSpec.type === 'string[]'
              ? Array.from({ length: Math.min(limit, 100) + 1 }, () => 'a')
              : undefined;
      if (value === undefined) continue;
      const answer = await send(spec, { [field]: value });
      expect(answer.body, field).toMatchObject({ error_code: 'E_1' });
      expect(answer.status).toBe(400);
    }
  });

  it('a body over the size limit is 413 E_1', async () => {
    const answer = await send(spec, { [fields[0]?.[0] ?? 'x']: 'y'.repeat((spec.bodyLimit ?? 16 * 1024) + 4096) });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error_code: 'E_1' });
  });

  it('junk strings in every field get a catalogue answer', async () => {
    for (const junk of JUNK) {
      const body = Object.fromEntries(fields.map(([field]) => [field, junk]));
      expectCatalogued(await send(spec, body), `${name} ${JSON.stringify(junk)}`);
    }
  });

  it('arrays, strings, numbers and null as the body get a catalogue answer (E_1 unless null reads as {})', async () => {
    for (const raw of ['[]', '[{}]', '"text"', '42', 'true']) {
      const answer = await send(spec, undefined, { raw });
      expect(answer.body, raw).toMatchObject({ error_code: 'E_1' });
      expectError(answer, 'E_1');
    }
    expectCatalogued(await send(spec, undefined, { raw: 'null' }), `${name} null`);
  });

  it('malformed JSON is 400 E_1', async () => {
    for (const raw of ['{', '{"a":}', "{'a':1}", '{"a":1}}', '\u0000']) {
      const answer = await send(spec, undefined, { raw });
      expectError(answer, 'E_1');
      expect(answer.body).toMatchObject({ error_message: 'The body is not valid JSON.' });
    }
  });

  it('a text/plain body is 415 E_1', async () => {
    const answer = await send(spec, undefined, { raw: 'phone_number=1', headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ error_code: 'E_1', error_category: 'request' });
  });

  it('an empty body with Content-Type: application/json reads as {}', async () => {
    const answer = await send(spec, undefined, { raw: '' });
    expectCatalogued(answer, name);
    expect(answer.body).not.toMatchObject({ error_message: 'The body is not valid JSON.' });
    const asObject = await send(spec, {});
    expect(answer.status).toBe(asObject.status);
    if (answer.status >= 300)
      expect((answer.body as { error_code: string }).error_code).toBe(
        (asObject.body as { error_code: string }).error_code,
      );
  });
});

describe('junk credentials and headers', () => {
  const AUTHORIZATIONS = [
    'Bearer',
    'Bearer ',
    '   ',
    'Basic dXNlcjpwYXNz',
    'Bearer a.b.c',
    `Bearer ${'x'.repeat(8000)}`,
  ];
  const COOKIES = ['authorization=', 'authorization=%E0%A4%A', 'authorization="quoted"', 'a=b; authorization', ';;;='];
  const withToken = accountTableRoutes.filter(([, spec]) => spec.auth !== 'none' || spec.path.endsWith('/convert'));

  it('a malformed Authorization header or cookie is refused with a catalogue code on every with-token route', async () => {
    for (const [name, spec] of withToken) {
      for (const headers of [
        ...AUTHORIZATIONS.map((authorization) => ({ authorization })),
        ...COOKIES.map((cookie) => ({ cookie })),
      ]) {
        const answer = await call(spec.method, spec.path, spec.method === 'GET' ? undefined : {}, { headers });
        expectCatalogued(answer, `${name} ${JSON.stringify(headers).slice(0, 80)}`);
        if (spec.auth === 'token') expect(answer.status, name).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it('an oversized or junk X-Captcha-Ticket is GCAP_1', async () => {
    const spec = accountTableRoutes.find(([name]) => name === 'loginByPasswordSecure')?.[1];
    if (!spec) throw new Error('loginByPasswordSecure is not in the table');
    for (const ticket of ['x'.repeat(8000), '\u00ff\u00fe', '../../']) {
      const answer = await call(
        spec.method,
        spec.path,
        { identity: '13800138000', password: 'Kestrel2718', pid: 'edupass' },
        { headers: { 'x-captcha-ticket': ticket } },
      );
      expectError(answer, 'GCAP_1');
    }
  });
});

describe('query strings', () => {
  it('a repeated, missing or junk phone_number on phone/check is E_1', async () => {
    const spec = accountTableRoutes.find(([name]) => name === 'checkPhoneBind')?.[1];
    if (!spec) throw new Error('checkPhoneBind is not in the table');
    const token = await sessionFor(server, userId);
    for (const query of ['', '?phone_number=', '?phone_number=1&phone_number=2', '?phone_number=%00', '?x[y]=1']) {
      const answer = await call('GET', `${spec.path}${query}`, undefined, { token });
      expectError(answer, 'E_1');
    }
  });

  it('an unknown path is 404 E_2 with the error shape', async () => {
    expectError(await call('GET', '/tiger/v3/web/accounts/no-such-thing'), 'E_2');
  });
});
