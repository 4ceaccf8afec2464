/**
 * The API docs' response schemas: every operation documents what it answers, and real answers match.
 * Every test file's server holds each success it sends to its route's schema (packages/test-kit/src/answer-check.ts,
 * failing the file on a mismatch); here, that the docs leave no operation out, that the check catches
 * what it should, and that a schema never reshapes an answer.
 */
import { adminRoutes, type RouteSpec, routes } from '@edupass/protocol';
import { expectError, signInOperator } from '@edupass/test-kit/accounts';
import { answerChecker } from '@edupass/test-kit/answer-check';
import { useTestServer } from '@edupass/test-kit/harness';
import Fastify, { type FastifySchema } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendAnswersAsBuilt } from '../http/answers-as-built.ts';

const { server, call } = useTestServer();

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const operations = async () => {
  const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
};

describe('response schemas in the API docs', () => {
  it('every operation documents its success: a 204, or a 2xx with a schema of its body', async () => {
    const listed = await operations();
    expect(listed.length).toBeGreaterThan(100);
    const undocumented = listed
      .filter(({ operation }) => {
        const successes = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
        return !successes.some(
          ([status, response]) =>
            status === '204' || Object.values(response.content ?? {}).some((media) => media.schema !== undefined),
        );
      })
      .map(({ name }) => name);
    expect(undocumented).toEqual([]);
  });

  it('every route of the table names its answer, and admin routes are in the table', () => {
    const table = Object.entries(routes as Record<string, RouteSpec>);
    expect(table.filter(([, spec]) => spec.answer === undefined).map(([name]) => name)).toEqual([]);
    for (const name of Object.keys(adminRoutes)) expect(routes).toHaveProperty(name);
    expect(Object.values(routes).filter((spec) => spec.path.startsWith('/admin/'))).toHaveLength(
      Object.keys(adminRoutes).length,
    );
  });

  it('the usage and monitor figures are table routes: operators only, as every admin route', async () => {
    const window = 'product=edupass';
    for (const path of ['usage/events', 'usage/uniques', 'monitor/errors', 'monitor/api', 'monitor/vitals']) {
      expectError(await call('GET', `/admin/${path}?${window}`), 'E_0');
    }
    const { token } = await signInOperator(server);
    for (const path of ['usage/events', 'usage/uniques', 'monitor/errors', 'monitor/api', 'monitor/vitals']) {
      expect((await call('GET', `/admin/${path}?${window}`, undefined, { token })).status).toBe(200);
    }
    expect((await call('GET', `/admin/usage/durations?${window}&key=video`, undefined, { token })).status).toBe(200);
    expectError(await call('GET', '/admin/usage/events?from=1', undefined, { token }), 'E_1');
    expectError(await call('GET', `/admin/usage/events?${window}&bucket=week`, undefined, { token }), 'E_1');
  });

  it('a success no other test file draws matches too (a mismatch fails the file when its server closes)', async () => {
    const { token } = await signInOperator(server);
    const set = await call('POST', '/admin/oauth/without-state', { pid: 'edupass', enabled: true }, { token });
    expect(set.status).toBe(204);
  });
});

describe('the answer check', () => {
  /** A one-route server documented as `{ id: integer }` that answers `answer` with `status`. */
  const answering = async (answer: unknown, status: number = 200) => {
    const app = Fastify({ logger: false });
    sendAnswersAsBuilt(app);
    const checker = answerChecker();
    checker.install(app);
    const schema: FastifySchema = {
      response: { 200: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
    };
    app.get('/thing', { schema }, async (_request, reply) => reply.code(status).send(answer));
    const sent = await app.inject({ method: 'GET', url: '/thing' });
    await app.close();
    return { body: sent.body, mismatches: checker.mismatches };
  };

  it('passes an answer of the documented shape', async () => {
    expect((await answering({ id: 1 })).mismatches).toEqual([]);
  });

  it('flags a wrong type, a missing field, a field the schema lacks, and an undocumented status', async () => {
    const wrong: [answer: unknown, status: number][] = [
      [{ id: 'one' }, 200],
      [{}, 200],
      [{ id: 1, secret: 'x' }, 200],
      [{ id: 1 }, 201],
    ];
    for (const [answer, status] of wrong) {
      const { mismatches } = await answering(answer, status);
      expect(mismatches).toHaveLength(1);
      expect(mismatches[0]?.answer).toBe(`GET /thing ${status}`);
    }
  });

  it('never reshapes an answer: fields the schema lacks are sent, in the order they were built', async () => {
    const answer = { extra: [1, 2], id: 7, nested: { b: 1, a: 2 } };
    expect((await answering(answer)).body).toBe(JSON.stringify(answer));
  });
});
