/**
 * An acknowledged event is a stored event: the server is killed (SIGKILL) in the middle of a burst of
 * batches, restarted on the same database, and every batch that got its 204 is there. The client then
 * retries everything, as the tracker does, and each event is stored exactly once.
 */
import type { ReportPayload } from '@edupass/protocol';
import { startChildServer } from '@edupass/test-kit/child-server';
import { reportBatches, storedEventIds, useChildServerDatabase } from '@edupass/test-kit/usage-reports';
import { expect, it } from 'vitest';
import { openStore } from '../../store/db.ts';
import { usageDb } from '../../store/usage/events.ts';

const child = useChildServerDatabase();

const BATCHES = 400;
const PER_BATCH = 25;
const batches = reportBatches(BATCHES, PER_BATCH, 'burst');

const send = (url: string, body: ReportPayload) =>
  fetch(`${url}/report/edupass`, { method: 'POST', body: JSON.stringify(body) }).then(
    (r) => r.status,
    () => 0,
  );

it('loses no acknowledged event when killed mid-burst, and stores each event once after retries', async () => {
  const env = { DATABASE_URL: child.database.url, PRODUCTS: 'edupass:edupass' };
  child.server = await startChildServer(child.bundle.file, env);
  const acknowledged: number[] = [];
  const first = child.server;
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

  child.server = await startChildServer(child.bundle.file, env);
  const afterCrash = await storedEventIds(child.database.url);
  const lost = acknowledged.flatMap((n) => batches[n]!.data.b.map((e) => e.i)).filter((id) => !afterCrash.has(id));
  expect(lost).toEqual([]);

  const store = openStore(child.database.url);
  try {
    // The tracker retries whatever it did not see acknowledged; here, everything.
    for (let n = 0; n < BATCHES; n += 50) {
      const statuses = await Promise.all(batches.slice(n, n + 50).map((body) => send(child.server!.url, body)));
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
