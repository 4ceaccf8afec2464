/**
 * Ingestion under overload, on SQLite and PostgreSQL: when the writer's queue is full (its store held
 * by a long transaction) the collectors answer 503 E_10 with Retry-After, never 500, and lose nothing
 * they acknowledged; per-IP and per-product ceilings answer the same way until their minute ends.
 */
import { randomUUID } from 'node:crypto';
import { type ReportEvent, type ReportPayload, SERVER_ERRORS } from '@edupass/protocol';
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { type Answer, client } from '@edupass/test-kit/http-client';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageDb } from '../store/usage/events.ts';

const events = (count: number): ReportEvent[] =>
  Array.from({ length: count }, () => ({ e: 'lesson_open', i: randomUUID(), t: Math.floor(Date.now() / 1000), d: {} }));

const batch = (b: ReportEvent[]): ReportPayload => ({
  type: 0,
  alg: '',
  data: { m: { d: 1, p: 'edupass', tst: 0, h: 0 }, e: {}, b },
});

const report = (server: TestServer, payload: ReportPayload, ip = '203.0.113.7') =>
  client(server.url)('POST', '/report/edupass', undefined, {
    raw: JSON.stringify(payload),
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-forwarded-for': ip },
  });

const storedEvents = async (server: TestServer) =>
  Number(
    (
      await usageDb(server.app.ctx.db)
        .selectFrom('usage_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** 503 E_10 in the wire shape, with a Retry-After of whole seconds the SDKs can read cross-origin. */
const expectRetryLater = (answer: Answer, maxSeconds: number) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(answer.body).toEqual({
    error_code: 'E_10',
    error_message: expect.any(String),
    error_number: expect.any(Number),
    error_category: SERVER_ERRORS.E_10.category,
    log_uuid: expect.any(String),
  });
  const seconds = Number(answer.headers.get('retry-after'));
  expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= maxSeconds, `Retry-After ${seconds}`).toBe(true);
  expect(answer.headers.get('access-control-expose-headers')).toMatch(/retry-after/i);
};

/**
 * Holds the usage store in a long transaction, as a slow disk or a big sweep would: on PostgreSQL a
 * lock on the events table, on SQLite the one connection itself. Resolves once held.
 */
const holdUsageStore = async (server: TestServer) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const done = server.app.ctx.db.transaction().execute(async (tx) => {
    if (testDatabaseKind() === 'postgres') await sql`LOCK TABLE usage_events IN EXCLUSIVE MODE`.execute(tx);
    else await sql`SELECT 1`.execute(tx);
    held();
    await released;
  });
  await holding;
  return async () => {
    release();
    await done;
  };
};

describe('a saturated writer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ingestQueueRows: 10, trustProxy: 1 });
  });
  afterAll(() => server?.close());

  it('answers 503 E_10 with Retry-After, never 500, and keeps every event it acknowledged', async () => {
    expect((await report(server, batch(events(1)))).status).toBe(204);
    const before = await storedEvents(server);
    const release = await holdUsageStore(server);
    const payloads = Array.from({ length: 10 }, () => batch(events(5)));
    const answers: (Answer | undefined)[] = payloads.map(() => undefined);
    const pending = payloads.map((payload, i) =>
      report(server, payload).then((answer) => {
        answers[i] = answer;
        return answer;
      }),
    );
    // At most one batch is in the held transaction and 10 rows wait behind it: the rest are turned
    // away at once, while the store is still held.
    await expect
      .poll(() => answers.filter((answer) => answer?.status === 503).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(7);
    const beacon = await client(server.url)('GET', '/monitor/beacon?k=error&p=edupass&n=boom');
    expectRetryLater(beacon, 5);
    await release();
    const settled = await Promise.all(pending);
    for (const answer of settled) {
      if (answer.status !== 204) expectRetryLater(answer, 5);
    }
    const accepted = payloads.filter((_, i) => settled[i]?.status === 204);
    expect(await storedEvents(server)).toBe(before + 5 * accepted.length);

    // The refused batches, sent again as the tracker does after Retry-After, are all kept.
    const refused = payloads.filter((_, i) => settled[i]?.status === 503);
    for (const payload of refused) expect((await report(server, payload)).status).toBe(204);
    expect(await storedEvents(server)).toBe(before + 5 * payloads.length);
  });
});

describe('ceilings per IP and per product', () => {
  let now = Date.UTC(2026, 10, 22, 12, 0, 10);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { ingestIpPerMinute: 3, ingestProductPerMinute: 12, trustProxy: 1 },
      { now: () => now },
    );
  });
  afterAll(() => server?.close());

  it('one address past its requests per minute gets 503 until the minute ends; others still report', async () => {
    for (let i = 0; i < 3; i++) expect((await report(server, batch(events(1)), '198.51.100.1')).status).toBe(204);
    const refused = await report(server, batch(events(1)), '198.51.100.1');
    expectRetryLater(refused, 60);
    expect(Number(refused.headers.get('retry-after'))).toBe(50);
    expect((await report(server, batch(events(1)), '198.51.100.2')).status).toBe(204);
    now += 60_000;
    expect((await report(server, batch(events(1)), '198.51.100.1')).status).toBe(204);
  });

  it('one product past its rows per minute gets 503 from any address', async () => {
    now += 60_000;
    expect((await report(server, batch(events(10)), '198.51.100.3')).status).toBe(204);
    expectRetryLater(await report(server, batch(events(5)), '198.51.100.4'), 60);
    const beacon = await client(server.url)('GET', '/monitor/beacon?k=error&p=edupass&n=boom', undefined, {
      headers: { 'x-forwarded-for': '198.51.100.5' },
    });
    expect(beacon.status).toBe(200);
    expectRetryLater(await report(server, batch(events(2)), '198.51.100.6'), 60);
  });
});
