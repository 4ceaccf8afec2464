/**
 * An acknowledged event is a stored event: the server is killed (SIGKILL) in the middle of a burst of
 * batches, restarted on the same database, and every batch that got its 204 is there. The client then
 * retries everything, as the tracker does, and each event is stored exactly once.
 */
import { randomUUID } from 'node:crypto';
import type { ReportPayload } from '@edupass/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../store/db.ts';
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

const BATCHES = 400;
const PER_BATCH = 25;
const batches: ReportPayload[] = Array.from({ length: BATCHES }, (_, n) => ({
  type: 0,
  alg: '',
  data: {
    m: { d: 1, p: 'edupass', tst: 0, h: 0 },
    e: { uid: `device-${n % 7}` },
    b: Array.from({ length: PER_BATCH }, () => ({ e: 'burst', i: randomUUID(), t: 1_800_000_000, d: { n } })),
  },
}));

const send = (url: string, body: ReportPayload) =>
  fetch(`${url}/report/edupass`, { method: 'POST', body: JSON.stringify(body) }).then(
    (r) => r.status,
    () => 0,
  );

const storedIds = async (store: Store) =>
  new Set((await usageDb(store.db).selectFrom('usage_events').select('event_id').execute()).map((row) => row.event_id));

it('loses no acknowledged event when killed mid-burst, and stores each event once after retries', async () => {
  const env = { DATABASE_URL: database.url, PRODUCTS: 'edupass:edupass' };
  server = await startChildServer(bundle.file, env);
  const acknowledged: number[] = [];
  const first = server;
  const sendAll = (from: number, to: number) =>
    Promise.all(
      batches.slice(from, to).map(async (body, i) => {
        if ((await send(first.url, body)) === 204) acknowledged.push(from + i);
      }),
    );
  // A quarter is acknowledged for sure; the kill then lands while the rest of the burst is in flight
  // (a kill timed on an answer could come after the server had answered everything, on a slow machine).
  await sendAll(0, BATCHES / 4);
  const rest = sendAll(BATCHES / 4, BATCHES);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await first.kill();
  await rest;
  expect(acknowledged.length).toBeGreaterThanOrEqual(BATCHES / 4);
  expect(acknowledged.length).toBeLessThan(BATCHES);

  server = await startChildServer(bundle.file, env);
  const store = openStore(database.url);
  try {
    const afterCrash = await storedIds(store);
    const lost = acknowledged.flatMap((n) => batches[n]!.data.b.map((e) => e.i)).filter((id) => !afterCrash.has(id));
    expect(lost).toEqual([]);

    // The tracker retries whatever it did not see acknowledged; here, everything.
    for (let n = 0; n < BATCHES; n += 50) {
      const statuses = await Promise.all(batches.slice(n, n + 50).map((body) => send(server!.url, body)));
      expect(statuses.every((s) => s === 204)).toBe(true);
    }
    const rows = await usageDb(store.db)
      .selectFrom('usage_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(BATCHES * PER_BATCH);
  } finally {
    await store.close();
  }
}, 120_000);
