/**
 * The drain (http/draining.ts) waits for the requests already running: a profile read held at its
 * database read while the drain starts is answered in full before the drain resolves (the server has
 * logged its answer by then), and a request that arrives meanwhile is turned away with 503 E_10.
 */
import { routes } from '@edupass/protocol';
import { client, expectError, signUp } from '@edupass/test-kit/accounts';
import { startTestServer } from '@edupass/test-kit/harness';
import { requestLines } from '@edupass/test-kit/request-log';
import { describe, expect, it } from 'vitest';

const PROFILE = routes.getProfile.path;
/** Longer than the drain's quiet time (200 ms), so a drain that did not count the read would be done. */
const HELD_MS = 1_000;

/**
 * Holds the store's one SQLite connection in an open transaction until `release()`: Kysely queues
 * every query behind it, and so do the hot reads that run their statement directly (compiled-query.ts),
 * which run beside a connection merely held.
 */
const holdDatabase = (db: { transaction(): { execute<T>(run: () => Promise<T>): Promise<T> } }) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = new Promise<void>((holding) => {
    void db.transaction().execute(async () => {
      holding();
      await released;
    });
  });
  return { held, release };
};

/** The statuses the server has logged as answered to profile reads, in order. */
const profileAnswers = (lines: string[]) =>
  requestLines(lines, (url) => url === PROFILE)
    .filter((line) => line.msg === 'request completed')
    .map((line) => line.res?.statusCode);

describe('draining', () => {
  it('waits for a profile read in flight, and turns new requests away meanwhile', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    // No session cache: the read goes to the database, where it is held.
    // At debug, the server logs a request as it arrives too.
    const server = await startTestServer({ sessionCacheSeconds: 0 }, { logger: { level: 'debug', stream } });
    let database: ReturnType<typeof holdDatabase> | undefined;
    try {
      const call = client(server.url);
      const account = await signUp(server);
      database = holdDatabase(server.app.ctx.db);
      await database.held;
      const read = call('GET', PROFILE, undefined, { token: account.token });
      const arrived = () =>
        requestLines(lines, (url) => url === PROFILE).some((line) => line.msg === 'incoming request');
      await expect.poll(arrived, { timeout: 30_000 }).toBe(true);

      // What the server had answered when the drain ended: its own log, not this process's reading
      // of the answer, which a stall of the test process could put after the drain's quiet time.
      const drained = server.app.drain().then(() => profileAnswers(lines));
      const newcomer = await call('GET', PROFILE, undefined, { token: account.token });
      expectError(newcomer, 'E_10');
      const stillDraining = await Promise.race([
        drained.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), HELD_MS)),
      ]);
      expect(stillDraining, 'the drain ended while a profile read was running').toBe(true);

      database.release();
      const answer = await read;
      expect(answer.status).toBe(200);
      expect((answer.body as { id: number }).id).toBe(account.userId);
      // The newcomer's 503, then the held read's 200, both before the drain ended.
      expect(await drained).toEqual([503, 200]);
    } finally {
      // A failed check must not leave the read held: the server's close waits for it.
      database?.release();
      await server.close();
    }
  }, 120_000);
});
