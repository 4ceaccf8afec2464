/**
 * An acknowledged event is a stored event: the server is killed (SIGKILL) in the middle of a burst of
 * batches (on the first answer of the burst, with the others being written and the last held back
 * halfway through their bodies), restarted on the same database, and every batch that got its 204 is
 * there. The client then retries everything, as the tracker does, and each event is stored exactly once.
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

/** Batches of the burst whose body is held back halfway until the server was killed. */
const HELD_BACK = 50;

const send = (url: string, body: ReportPayload | ReadableStream<Uint8Array>) =>
  fetch(`${url}/report/edupass`, {
    method: 'POST',
    body: body instanceof ReadableStream ? body : JSON.stringify(body),
    duplex: 'half',
  } as RequestInit).then(
    (r) => r.status,
    () => 0,
  );

/** The batch's body: its first half at once, the rest once `released` (the server cannot answer it before). */
const heldBack = (body: ReportPayload, released: Promise<void>) => {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const half = bytes.length >> 1;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(bytes.slice(0, half));
      await released;
      controller.enqueue(bytes.slice(half));
      controller.close();
    },
  });
};

it('loses no acknowledged event when killed mid-burst, and stores each event once after retries', async () => {
  const env = { DATABASE_URL: child.database.url, PRODUCTS: 'edupass:edupass' };
  child.server = await startChildServer(child.bundle.file, env);
  const acknowledged: number[] = [];
  const first = child.server;
  let killing: Promise<void> | undefined;
  const kill = () => {
    killing ??= first.kill();
    return killing;
  };
  const sendAll = (from: number, to: number, then = () => {}) =>
    Promise.all(
      batches.slice(from, to).map(async (body, i) => {
        if ((await send(first.url, body)) !== 204) return;
        acknowledged.push(from + i);
        then();
      }),
    );
  // A quarter is acknowledged for sure. Then the rest goes out at once, and the server is killed on
  // the first answer among them, while the others are being written; the last batches are held back
  // halfway through their bodies, so the kill always finds some in flight, on a fast or a slow machine.
  await sendAll(0, BATCHES / 4);
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = Promise.all(batches.slice(BATCHES - HELD_BACK).map((body) => send(first.url, heldBack(body, released))));
  await sendAll(BATCHES / 4, BATCHES - HELD_BACK, () => void kill());
  await kill();
  release();
  expect((await held).every((status) => status === 0)).toBe(true);
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
