/**
 * Usage batches answered before Fastify (http/reports-before-fastify.ts): the same status, body and
 * headers as the route gives (a query string sends a batch through the route: the path takes none),
 * stored alike; counted and logged as the route's requests are; and every request it should not take
 * left to the route.
 */
import { startTestServer, type TestServer, useTestServer } from '@edupass/test-kit/harness';
import { headersBesidesDate } from '@edupass/test-kit/http-client';
import { reportBatches } from '@edupass/test-kit/usage-reports';
import { describe, expect, it } from 'vitest';

const SITE = 'https://site.example';
const TEXT = 'text/plain;charset=UTF-8';
/** The route sees the same batch when the URL has a query (this path takes none). */
const THROUGH_ROUTE = '?through=route';

/** Runs `test` against a server of its own, closed after it. */
const onServer = async (
  test: (server: TestServer) => Promise<void>,
  ...options: Parameters<typeof startTestServer>
) => {
  const server = await startTestServer(...options);
  try {
    await test(server);
  } finally {
    await server.close();
  }
};

const answeredHere = (server: TestServer) => server.app.reportsBeforeFastify.answered;

const post = (server: TestServer, path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': TEXT, ...headers },
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

/** Status, body (without its log id) and headers of an answer. */
const answerOf = async (response: Response) => {
  const text = await response.text();
  const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  if (body !== undefined) body.log_uuid = typeof body.log_uuid;
  return { status: response.status, body, headers: headersBesidesDate(response) };
};

/** The same request answered here and by the route: both answers, after checking who answered each. */
const bothWays = async (server: TestServer, path: string, body: () => string, headers: Record<string, string> = {}) => {
  const before = answeredHere(server);
  const here = await answerOf(await post(server, path, body(), headers));
  expect(answeredHere(server)).toBe(before + 1);
  const route = await answerOf(await post(server, `${path}${THROUGH_ROUTE}`, body(), headers));
  expect(answeredHere(server)).toBe(before + 1);
  return { here, route };
};

const batch = (key: string) => JSON.stringify(reportBatches(1, 3, key)[0]);

const storedEvents = async (server: TestServer) => (await server.app.ctx.events.counts()).events;

const countedAs = async (server: TestServer, status: number) => {
  const metrics = await server.app.ctx.metrics.registry.metrics();
  const line = metrics
    .split('\n')
    .find(
      (row) =>
        row.startsWith('edupass_http_requests_total{') &&
        row.includes('route="/report/:product"') &&
        row.includes('method="POST"') &&
        row.includes(`"${status}"`),
    );
  return Number(line?.split(' ').at(-1) ?? 0);
};

describe('answered before Fastify, with CORS origins configured', () => {
  const { server } = useTestServer({ corsOrigins: [SITE] });

  it('stores a batch and answers 204 with every header the route gives, counted under the route', async () => {
    const stored = await storedEvents(server);
    const counted = await countedAs(server, 204);
    const { here, route } = await bothWays(server, '/report/edupass', () => batch('stored-here'));
    expect(here.status).toBe(204);
    expect(here).toEqual(route);
    expect(here.headers['access-control-allow-origin']).toBe('*');
    expect(here.headers['access-control-expose-headers']).toBe('retry-after');
    expect(here.headers['content-security-policy']).toBeTruthy();
    expect(here.headers.vary).toBe('Origin');
    expect(await storedEvents(server)).toBe(stored + 6);
    expect(await countedAs(server, 204)).toBe(counted + 2);
  });

  it('answers each refusal as the route does: status, catalogue body and headers', async () => {
    const counted = await countedAs(server, 400);
    const refusals: [path: string, body: () => string, status: number][] = [
      ['/report/edupass', () => '{"type":0,', 400],
      ['/report/edupass', () => batch('wrong-product').replace('"p":"edupass"', '"p":"other"'), 400],
      ['/report/edupass', () => JSON.stringify({ type: 0, data: { m: { p: 'edupass' }, b: [{ e: 'x' }] } }), 400],
      ['/report/edupass', () => '', 400],
      // Within the byte limit, over the tracker's own (3× the characters).
      ['/report/edupass', () => JSON.stringify({ pad: 'x'.repeat(12_000) }), 400],
      ['/report/nosuch', () => batch('unknown').replace('"p":"edupass"', '"p":"nosuch"'), 404],
    ];
    for (const [path, body, status] of refusals) {
      const { here, route } = await bothWays(server, path, body);
      expect(here.status, body()).toBe(status);
      expect(here.body?.error_code).toBe(status === 404 ? 'E_2' : 'E_1');
      expect(here).toEqual(route);
      expect(here.headers['cache-control']).toBe('no-store');
    }
    expect(await countedAs(server, 400)).toBe(counted + 10);
  });

  it('leaves to the route what it should not read: a page with Origin, chunked, other media types, escapes, oversized', async () => {
    const before = answeredHere(server);
    const cors = await post(server, '/report/edupass', batch('cors'), { origin: SITE });
    expect(cors.status).toBe(204);
    expect(cors.headers.get('access-control-allow-origin')).toBe(SITE);
    const text = batch('chunked');
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    expect((await post(server, '/report/edupass', chunked)).status).toBe(204);
    expect((await post(server, '/report/edupass', batch('json'), { 'content-type': 'application/json' })).status).toBe(
      204,
    );
    expect((await post(server, '/report/%65dupass', batch('escaped'))).status).toBe(204);
    const oversized = await answerOf(await post(server, '/report/edupass', 'x'.repeat(30_001)));
    expect(oversized.status).toBe(413);
    expect(oversized.body?.error_code).toBe('E_1');
    expect(answeredHere(server)).toBe(before);
  });
});

describe('answered before Fastify, other servers', () => {
  it('without CORS origins, takes a page’s batch (Origin) and answers it as the route does', async () => {
    await onServer(async (server) => {
      const { here, route } = await bothWays(server, '/report/edupass', () => batch('page'), { origin: SITE });
      expect(here.status).toBe(204);
      expect(here).toEqual(route);
    });
  });

  it('a saturated queue: 503 with Retry-After, as the route answers it', async () => {
    await onServer(
      async (server) => {
        const { here, route } = await bothWays(server, '/report/edupass', () => batch('saturated'));
        expect(here.status).toBe(503);
        expect(here.headers['retry-after']).toBe('2');
        expect(here).toEqual(route);
      },
      { ingestQueueRows: 0 },
    );
  });

  it('behind a trusted proxy, a forwarded request goes to the route, which reads the client from the header', async () => {
    await onServer(
      async (server) => {
        const before = answeredHere(server);
        const [body] = reportBatches(1, 1, 'forwarded');
        const forwarded = await post(server, '/report/edupass', JSON.stringify(body), {
          'x-forwarded-for': '203.0.113.7',
        });
        expect(forwarded.status).toBe(204);
        expect(answeredHere(server)).toBe(before);
        const [row] = await server.app.ctx.events.eventsById('edupass', [body?.data.b[0]?.i ?? '']);
        expect(row?.ip).toBe('203.0.113.7');
        // Without the header, the client is the peer: taken here.
        expect((await post(server, '/report/edupass', batch('direct'))).status).toBe(204);
        expect(answeredHere(server)).toBe(before + 1);
      },
      { trustProxy: 1 },
    );
  });

  it('a draining server answers 503 E_10 through the route', async () => {
    await onServer(async (server) => {
      const before = answeredHere(server);
      const drained = server.app.drain();
      const refused = await answerOf(await post(server, '/report/edupass', batch('draining')));
      expect(refused.status).toBe(503);
      expect(refused.body?.error_code).toBe('E_10');
      expect(answeredHere(server)).toBe(before);
      await drained;
    });
  });

  it('with request logging on, a batch is logged as Fastify logs a request', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    await onServer(
      async (server) => {
        expect((await post(server, '/report/edupass', batch('logged'))).status).toBe(204);
        expect((await post(server, '/report/nosuch', batch('logged'))).status).toBe(400);
        expect(answeredHere(server)).toBe(2);
        const read = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(read.filter((line) => line.msg === 'incoming request')).toEqual([]);
        const completed = read.filter((line) => line.msg === 'request completed');
        expect(
          completed.map((line) => [(line.req as { url: string }).url, (line.res as { statusCode: number }).statusCode]),
        ).toEqual([
          ['/report/edupass', 204],
          ['/report/nosuch', 400],
        ]);
        expect(completed[0]?.req).toEqual({
          method: 'POST',
          url: '/report/edupass',
          host: new URL(server.url).host,
          remoteAddress: '127.0.0.1',
          remotePort: expect.any(Number),
        });
        expect(completed[0]?.reqId).not.toBe(completed[1]?.reqId);
        expect(typeof completed[0]?.responseTime).toBe('number');
      },
      {},
      { logger: { level: 'info', stream } },
    );
  });
});
