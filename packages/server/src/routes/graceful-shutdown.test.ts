/**
 * SIGTERM under load: the server stops taking new requests, finishes the ones it has, writes what
 * the ingestion writer holds and exits 0. Every acknowledged event is there after a restart, no
 * request is cut off mid-answer, and a request the server turned away says so (503 E_10).
 */
import { randomUUID } from 'node:crypto';
import type { ReportPayload } from '@edupass/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../store/db.ts';
import { usageDb } from '../store/usage.ts';
import { bundleServer, type ChildServer, startChildServer } from '../testing/child-server.ts';
import { createTestDatabase, type TestDatabase } from '../testing/databases.ts';

let database: TestDatabase;
let bundle: Awaited<ReturnType<typeof bundleServer>>;
let server: ChildServer | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  bundle = await bundleServer();
});
afterAll(async () => {
  await server?.kill();
  bundle.remove();
  await database.drop();
});

const BATCHES = 300;
const PER_BATCH = 20;
const batches: ReportPayload[] = Array.from({ length: BATCHES }, (_, n) => ({
  type: 0,
  alg: '',
  data: {
    m: { d: 1, p: 'edupass', tst: 0, h: 0 },
    e: { uid: `device-${n % 7}` },
    b: Array.from({ length: PER_BATCH }, () => ({ e: 'drain', i: randomUUID(), t: 1_800_000_000, d: { n } })),
  },
}));

type Outcome = { status: number; code?: string } | { error: string };

/** The answer, or how the connection failed (refused: never reached the server; reset: cut off). */
const send = (url: string, body: ReportPayload): Promise<Outcome> =>
  fetch(`${url}/report/edupass`, {
    method: 'POST',
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  }).then(
    async (r) => ({
      status: r.status,
      code: r.status === 204 ? undefined : ((await r.json()) as { error_code: string }).error_code,
    }),
    (error: Error & { cause?: { code?: string } }) => ({ error: error.cause?.code ?? error.name }),
  );

it('drains in-flight requests and the ingestion writer on SIGTERM: nothing acknowledged is lost', async () => {
  const env = { DATABASE_URL: database.url, PRODUCTS: 'edupass:edupass' };
  server = await startChildServer(bundle.file, env);
  const first = server;
  const outcomes: Outcome[] = new Array(BATCHES);
  const sendAll = (from: number, to: number) =>
    Promise.all(
      batches.slice(from, to).map(async (body, i) => {
        outcomes[from + i] = await send(first.url, body);
      }),
    );
  await sendAll(0, BATCHES / 4);
  const rest = sendAll(BATCHES / 4, BATCHES);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const exited = new Promise<number | null>((resolve) => first.process.once('exit', (code) => resolve(code)));
  first.process.kill('SIGTERM');
  await rest;
  expect(await exited).toBe(0);

  const acknowledged = outcomes.flatMap((o, n) => ('status' in o && o.status === 204 ? [n] : []));
  const turnedAway = outcomes.filter((o) => 'status' in o && o.status !== 204);
  const failed = outcomes.filter((o): o is { error: string } => 'error' in o);
  expect(acknowledged.length).toBeGreaterThanOrEqual(BATCHES / 4);
  // Turned away with the catalogue's 503, or refused before reaching it; never cut off mid-request.
  for (const o of turnedAway) expect(o).toEqual({ status: 503, code: 'E_10' });
  console.log(
    JSON.stringify({
      acknowledged: acknowledged.length,
      turnedAway: turnedAway.length,
      failed: failed.map((o) => o.error),
    }),
  );
  for (const o of failed) expect(o.error).toBe('ECONNREFUSED');

  server = await startChildServer(bundle.file, env);
  const store = openStore(database.url);
  try {
    const stored = new Set(
      (await usageDb(store.db).selectFrom('usage_events').select('event_id').execute()).map((row) => row.event_id),
    );
    const lost = acknowledged.flatMap((n) => batches[n]!.data.b.map((e) => e.i)).filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
  } finally {
    await store.close();
  }
}, 120_000);
