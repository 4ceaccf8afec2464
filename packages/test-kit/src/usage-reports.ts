/** Tracker batches for the usage tests: posted as the tracker does (text/plain body), and read back. */
import { randomUUID } from 'node:crypto';
import type { ReportPayload } from '@edupass/protocol';
import { afterAll, beforeAll } from 'vitest';
import { openStore } from '../../server/src/store/db.ts';
import { usageDb } from '../../server/src/store/usage/events.ts';
import { bundleServer, type ChildServer } from './child-server.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

/** One tracker batch of one event; answers the response. */
export const reportOneEvent = (url: string, deviceUid = 'device-1', product = 'edupass') =>
  fetch(`${url}/report/${product}`, {
    method: 'POST',
    body: JSON.stringify({
      type: 0,
      alg: '',
      data: {
        m: { d: 1, p: product, tst: 0, h: 0 },
        e: { uid: deviceUid },
        b: [{ e: 'lesson_open', i: randomUUID(), t: Math.floor(Date.now() / 1000), d: {} }],
      },
    }),
  });

/** `count` tracker batches of `perBatch` events each (fresh ids), the event key naming the test. */
export const reportBatches = (count: number, perBatch: number, key: string): ReportPayload[] =>
  Array.from({ length: count }, (_, n) => ({
    type: 0,
    alg: '',
    data: {
      m: { d: 1, p: 'edupass', tst: 0, h: 0 },
      e: { uid: `device-${n % 7}` },
      b: Array.from({ length: perBatch }, () => ({ e: key, i: randomUUID(), t: 1_800_000_000, d: { n } })),
    },
  }));

/** The event ids stored in the database at `url`. */
export const storedEventIds = async (url: string): Promise<Set<string>> => {
  const store = openStore(url);
  try {
    return new Set(
      (await usageDb(store.db).selectFrom('usage_events').select('event_id').execute()).map((row) => row.event_id),
    );
  } finally {
    await store.close();
  }
};

/**
 * A new test database and the server bundled once, for tests that run it as a child process
 * (killed, signalled, restarted): `server` is whichever process the test started last.
 */
export const useChildServerDatabase = () => {
  const state = {} as {
    database: TestDatabase;
    bundle: Awaited<ReturnType<typeof bundleServer>>;
    server?: ChildServer;
  };
  beforeAll(async () => {
    state.database = await createTestDatabase();
    state.bundle = await bundleServer();
  });
  afterAll(async () => {
    await state.server?.kill();
    state.bundle.remove();
    await state.database.drop();
  });
  return state;
};
