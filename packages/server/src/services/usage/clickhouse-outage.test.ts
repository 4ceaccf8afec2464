/**
 * Acknowledged means durable, with the events in ClickHouse: a ClickHouse server of this test's own is
 * stopped in the middle of a bounded ingest and started again. Every batch the collector answered 204
 * is there afterwards (from ClickHouse or from the local spool shipped on its return), the batches
 * retried by the client are not counted twice, and every dashboard equals the rows.
 */
import type { ReportPayload } from '@edupass/protocol';
import { createClickHouseTestDatabase, testEventsKind } from '@edupass/test-kit/clickhouse-database';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { reportBatches } from '@edupass/test-kit/usage-reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScratchClickHouse, startScratchClickHouse } from '../../../../../scripts/scratch-clickhouse.mjs';

const BATCHES = 60;
const PER_BATCH = 20;
const batches = reportBatches(BATCHES, PER_BATCH, 'outage');

/** Waits for `done` (checked every 50 ms) up to a generous limit; fails with `what` past it. */
const until = async (what: string, done: () => Promise<boolean> | boolean, limitMs = 90_000) => {
  const deadline = performance.now() + limitMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.runIf(testEventsKind() === 'clickhouse')('ClickHouse stopped mid-ingest', () => {
  let clickhouse: ScratchClickHouse;
  let server: TestServer;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    clickhouse = await startScratchClickHouse();
    const database = createClickHouseTestDatabase(clickhouse.url);
    drop = database.drop;
    server = await startTestServer(database.config);
  });
  afterAll(async () => {
    await server?.close();
    await clickhouse?.start().catch(() => {});
    await drop?.().catch(() => {});
    await clickhouse?.remove();
  });

  const send = (body: ReportPayload) =>
    fetch(`${server.url}/report/edupass`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.status);
  const sendAll = (list: ReportPayload[]) => Promise.all(list.map(send));

  it('loses no acknowledged event and counts each once after a stop and a start', async () => {
    const events = server.app.ctx.events;
    // A third while ClickHouse runs; a third sent while it stops (and once it is down); a third while it
    // starts again — each batch in flight at the moment of the change.
    const first = await sendAll(batches.slice(0, 20));
    const stopping = clickhouse.stop();
    const second = await sendAll(batches.slice(20, 40));
    await stopping;
    expect(await send(batches[20]!)).toBe(204); // a client retry while ClickHouse is down
    expect(events.unshipped()).toBeGreaterThan(0);
    const starting = clickhouse.start();
    const third = await sendAll(batches.slice(40, 60));
    await starting;
    expect([...first, ...second, ...third].every((status) => status === 204)).toBe(true);
    // Client retries of batches already stored, after ClickHouse is back.
    expect(await sendAll(batches.slice(15, 25))).toEqual(Array(10).fill(204));

    await until('the spool to ship', async () => events.unshipped() === 0 && (await events.shipSpool()));
    const ids = batches.flatMap((b) => b.data.b.map((e) => e.i));
    const stored = await events.eventsById('edupass', ids);
    expect(stored.length).toBe(ids.length);
    expect((await events.counts()).events).toBe(BATCHES * PER_BATCH);

    const w = { product: 'edupass', from: 1_800_000_000_000 - 3_600_000, to: 1_800_000_000_000 + 3_600_000 };
    expect(await events.eventCounts(w, 86_400_000, 'outage')).toEqual([
      { key: 'outage', bucket: Math.floor(1_800_000_000_000 / 86_400_000) * 86_400_000, count: BATCHES * PER_BATCH },
    ]);
    expect(await events.uniques(w)).toEqual({ devices: 7, users: 0, events: BATCHES * PER_BATCH });
  }, 180_000);
});
