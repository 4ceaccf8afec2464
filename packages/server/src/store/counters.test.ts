import { createSecretKey, randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '@edupass/test-kit/databases';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { type Counters, databaseCounters, withHashedKeys } from './counters.ts';
import { openStore, type Store } from './db.ts';
import { migrate } from './migrate.ts';
import { redisCounters, redisWithFallback } from './redis-counters.ts';

const redisUrl = process.env.EDUPASS_TEST_REDIS_URL;

/** Keys of one test, each `<prefix>:<name>`, as a tuple of the names' length. */
const keysOf = <const Names extends readonly string[]>(prefix: string, ...names: Names) =>
  names.map((name) => `${prefix}:${name}`) as { [I in keyof Names]: string };

const behavesAsFixedWindowCounters = (name: string, make: () => Promise<Counters>) =>
  describe(name, () => {
    let counters: Counters;
    const key = `test:${Date.now()}:${Math.random()}`;
    beforeAll(async () => {
      counters = await make();
    });

    test('counts hits in one window and reports what is left of it', async () => {
      expect(await counters.peek(key)).toBe(0);
      expect(await counters.hit(key, 60)).toBe(1);
      expect(await counters.hit(key, 60)).toBe(2);
      expect(await counters.peek(key)).toBe(2);
      expect(await counters.ttl(key)).toBeGreaterThan(50);
      await counters.reset(key);
      expect(await counters.peek(key)).toBe(0);
    });

    test('parallel hits are each counted once', async () => {
      const parallelKey = `${key}:parallel`;
      const counts = await Promise.all(Array.from({ length: 50 }, () => counters.hit(parallelKey, 60)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    test('a hit given back leaves the window one lower, never below 0, and a closed window alone', async () => {
      const releasedKey = `${key}:released`;
      await counters.hit(releasedKey, 60);
      await counters.hit(releasedKey, 60);
      await Promise.all([counters.release(releasedKey), counters.release(releasedKey), counters.release(releasedKey)]);
      expect(await counters.peek(releasedKey)).toBe(0);
      expect(await counters.hit(releasedKey, 60)).toBe(1);
      await counters.release(`${key}:never-hit`);
      expect(await counters.peek(`${key}:never-hit`)).toBe(0);
    });

    test('several keys read at once, each as peek reads it, in the order asked', async () => {
      const [once, thrice, never] = keysOf(`${key}:all`, 'once', 'thrice', 'never');
      await counters.hit(once, 60);
      for (let i = 0; i < 3; i++) await counters.hit(thrice, 60);
      expect(await counters.peekAll([thrice, never, once, thrice])).toEqual([3, 0, 1, 3]);
      expect(await counters.peekAll([never])).toEqual([0]);
      expect(await counters.peekAll([])).toEqual([]);
      await counters.reset(thrice);
      expect(await counters.peekAll([once, thrice])).toEqual([1, 0]);
    });

    test('a hit then another key read: the count after the hit, and the other window', async () => {
      const [place, failures] = [`${key}:place`, `${key}:failures`];
      expect(await counters.hitThenPeek(place, 60, failures)).toEqual({ count: 1, other: 0 });
      await counters.hit(failures, 60);
      expect(await counters.hitThenPeek(place, 60, failures)).toEqual({ count: 2, other: 1 });
      expect(await counters.ttl(place)).toBeGreaterThan(50);
      const counts = await Promise.all(Array.from({ length: 20 }, () => counters.hitThenPeek(place, 60, failures)));
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
      expect(counts.every((c) => c.other === 1)).toBe(true);
    });

    test('a hit with another key alongside: each counted once in its own window, in parallel too', async () => {
      const [place, run, failures] = keysOf(`${key}:alongside`, 'place', 'run', 'failures');
      await counters.hit(failures, 60);
      const alongside = { key: run, windowSeconds: 600 };
      expect(await counters.hitThenPeek(place, 60, failures, alongside)).toEqual({ count: 1, other: 1, alongside: 1 });
      expect(await counters.ttl(place)).toBeLessThanOrEqual(60);
      expect(await counters.ttl(run)).toBeGreaterThan(500);
      const counts = await Promise.all(
        Array.from({ length: 20 }, () => counters.hitThenPeek(place, 60, failures, alongside)),
      );
      const upFrom = (first: number) => Array.from({ length: 20 }, (_, i) => i + first);
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(upFrom(2));
      expect(counts.map((c) => Number(c.alongside)).sort((a, b) => a - b)).toEqual(upFrom(2));
      expect(counts.every((c) => c.other === 1)).toBe(true);
      expect(await counters.peekAll([place, run, failures])).toEqual([21, 21, 1]);
      // Sign-ins of one account at once, some taking places with the run (and reading the failures),
      // others giving theirs back and ending the run and the failures, others counting a failure: every
      // one answered (no deadlock between the writes on PostgreSQL).
      for (let round = 0; round < 5; round++) {
        const settled = await Promise.allSettled(
          Array.from({ length: 40 }, (_, i) =>
            i % 4 === 3
              ? counters.hit(failures, 60)
              : i % 2 === 0
                ? counters.hitThenPeek(place, 60, failures, alongside)
                : counters.releaseAndReset(place, i % 4 === 1 ? [failures, run] : [run]),
          ),
        );
        expect(settled.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      }
    });

    test('a place given back and other windows closed together; a closed place and no resets alone', async () => {
      const [place, failures, run, untouched] = keysOf(`${key}:settle`, 'place', 'failures', 'run', 'untouched');
      for (const k of [place, place, failures, run, run, untouched]) await counters.hit(k, 60);
      await counters.releaseAndReset(place, [failures, run]);
      expect(await counters.peekAll([place, failures, run, untouched])).toEqual([1, 0, 0, 1]);
      await counters.releaseAndReset(place, []);
      await counters.releaseAndReset(place, [`${key}:settle:never`]);
      expect(await counters.peekAll([place, untouched])).toEqual([0, 1]);
      // Twenty guesses' places taken and given back at once: none lost, none given back twice.
      await Promise.all(Array.from({ length: 20 }, () => counters.hit(place, 60)));
      await Promise.all(Array.from({ length: 15 }, () => counters.releaseAndReset(place, [run])));
      expect(await counters.peek(place)).toBe(5);
      expect(await counters.hit(run, 60)).toBe(1);
    });
  });

let store: Store;
let database: TestDatabase;
let now = Date.now();
behavesAsFixedWindowCounters('database counters', async () => {
  database = await createTestDatabase();
  store = openStore(database.url);
  await migrate(store);
  return databaseCounters(store.db, () => now);
});

// The keys past their first part kept as HMACs: each call, a hit and the read after it included, keeps
// counting under the same hashed key.
behavesAsFixedWindowCounters('database counters, keys hashed', async () =>
  withHashedKeys(
    databaseCounters(store.db, () => now),
    createSecretKey(randomBytes(32)),
  ),
);

test('a database window that has closed starts again at 1', async () => {
  const counters = databaseCounters(store.db, () => now);
  expect(await counters.hit('expiring', 1)).toBe(1);
  expect(await counters.hit('expiring', 1)).toBe(2);
  now += 1500;
  expect(await counters.peek('expiring')).toBe(0);
  expect(await counters.peekAll(['expiring'])).toEqual([0]);
  expect(await counters.hit('expiring', 1)).toBe(1);
});

// On SQLite a count runs on its statement at once (compiled-query.ts), on the one connection that
// another request's transaction may hold open between two of its awaits: it must not join it.
test('a count taken while another transaction is open is not rolled back with it', async () => {
  const counters = databaseCounters(store.db, () => now);
  let counted: Promise<number> | undefined;
  const failed = store.db
    .transaction()
    .execute(async (tx) => {
      await tx
        .insertInto('counters')
        .values({ key: 'inside', count: 1, expires_at: now + 60_000 })
        .execute();
      counted = counters.hit('outside', 60);
      // Let the count run now if it can (it must not, inside this transaction), then roll back.
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('rolled back');
    })
    .catch((error: Error) => error.message);
  expect(await failed).toBe('rolled back');
  expect(await counted).toBe(1);
  expect(await counters.peek('inside')).toBe(0);
  expect(await counters.peek('outside')).toBe(1);
});

afterAll(async () => {
  await store?.close();
  await database?.drop();
});

/**
 * Until a backend waits for a lock that `client`'s transaction holds (a row it locked or wrote). Not
 * any wait for a lock in the database: a test that went on at such a wait once found, on a loaded CI
 * machine, the row it expected locked still free (a statement may wait briefly for locks nobody in
 * the test holds: autovacuum's, a relation's extension).
 */
const someoneWaitsFor = async (client: pg.Client) => {
  const { pid } = (await client.query('select pg_backend_pid() as pid')).rows[0];
  await expect
    .poll(
      async () =>
        (
          await client.query('select count(*) as n from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))', [
            pid,
          ])
        ).rows[0].n,
    )
    .not.toBe('0');
};

describe.runIf(testDatabaseKind() === 'postgres')('rows locked on PostgreSQL', () => {
  let own: { database: TestDatabase; store: Store } | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase();
    own = { database, store: openStore(database.url) };
    await migrate(own.store);
  });
  afterAll(async () => {
    await own?.store.close();
    await own?.database.drop();
  });

  test("a sign-in's two rows and a statement locking them in the other order: the sign-in is answered, run again when it is the one cancelled", async () => {
    const { database, store } = own ?? {};
    if (database === undefined || store === undefined) throw new Error('no database');
    const counters = databaseCounters(store.db);
    const [place, failures, run] = keysOf(`deadlock:${Date.now()}`, 'place', 'failures', 'run');
    await counters.hitThenPeek(place, 60, failures, { key: run, windowSeconds: 600 });
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      // The other order: the place first (as the sweep deleting both expired rows may take them).
      await other.query('begin');
      await other.query('select count from counters where key = $1 for update', [place]);
      let signInSettled = false;
      const signIn = counters.hitThenPeek(place, 60, failures, { key: run, windowSeconds: 600 });
      signIn.then(
        () => (signInSettled = true),
        () => (signInSettled = true),
      );
      // The sign-in holds the run and waits for the place; then the other waits for the run.
      await someoneWaitsFor(other);
      // It holds the run: the other cannot take it without waiting (tried in a savepoint, keeping the place).
      await other.query('savepoint tried');
      const runHeld = await other.query('select count from counters where key = $1 for update nowait', [run]).then(
        () => false,
        (error: { code?: string }) => {
          if (error.code !== '55P03') throw error;
          return true;
        },
      );
      await other.query('rollback to savepoint tried');
      expect(runHeld).toBe(true);
      // PostgreSQL cancels the one whose wait it checks first: the sign-in's (it began waiting first), or
      // on a stalled machine the other's. Either way there was a deadlock, and the sign-in is answered.
      // The other taking the run proves the sign-in was cancelled (it held the run and could not finish
      // without the place); it is then still waiting, run again, for the place. (The database's own
      // count of deadlocks, pg_stat_database, is not read: a backend reports it when it next flushes its
      // statistics, which a loaded machine put off past 15 s.)
      const otherTakesRun = other.query('select count from counters where key = $1 for update', [run]).then(
        async () => {
          const signInWaiting = !signInSettled;
          await other.query('commit');
          return signInWaiting ? 'the sign-in cancelled, waiting again' : 'the sign-in finished first';
        },
        async (error: { code?: string }) => {
          if (error.code !== '40P01') throw error;
          await other.query('rollback');
          return 'the other cancelled';
        },
      );
      const [taken, deadlock] = await Promise.all([signIn, otherTakesRun]);
      expect(taken).toEqual({ count: 2, other: 0, alongside: 2 });
      expect(['the sign-in cancelled, waiting again', 'the other cancelled']).toContain(deadlock);
      expect(await counters.peekAll([place, run])).toEqual([2, 2]);
    } finally {
      await other.end();
    }
  }, 60_000);

  // A plain read in the hit's statement would answer the row as the statement's snapshot held it: the
  // failure counted meanwhile missed, and with the place given back after it, a guess past the lock.
  test.each([
    ['a failure counted', 'update counters set count = count + 1 where key = $1', 2],
    ['a first failure counted', 'insert into counters (key, count, expires_at) values ($1, 1, $2)', 1],
  ])(
    '%s while the hit waits for its row: the read answers it',
    async (_, write, failures) => {
      const { database, store } = own ?? {};
      if (database === undefined || store === undefined) throw new Error('no database');
      const counters = databaseCounters(store.db);
      const [place, failed, run] = keysOf(`waits:${failures}:${Date.now()}`, 'place', 'failures', 'run');
      if (failures === 2) await counters.hit(failed, 600);
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(write, failures === 2 ? [failed] : [failed, Date.now() + 600_000]);
        const taken = counters.hitThenPeek(place, 60, failed, { key: run, windowSeconds: 600 });
        // The sign-in's statement has begun (its snapshot taken) and waits for the failures' row.
        await someoneWaitsFor(other);
        await other.query('commit');
        expect(await taken).toEqual({ count: 1, other: failures, alongside: 1 });
        expect(await counters.peekAll([place, failed, run])).toEqual([1, failures, 1]);
      } finally {
        await other.end();
      }
    },
    60_000,
  );
});

describe.runIf(redisUrl !== undefined)('with Redis', () => {
  let counters: Counters;
  behavesAsFixedWindowCounters('redis counters', async () => {
    counters = redisCounters(new Redis(redisUrl ?? ''), `edupass-test-${process.pid}:`);
    return counters;
  });
  afterAll(() => counters?.close());
  test('a reset clears the database too only while a window this process counted there may be open', async () => {
    const inDatabase = databaseCounters(store.db, () => Date.now());
    const redis = new Redis(redisUrl ?? '', { lazyConnect: true, maxRetriesPerRequest: 0 });
    const counters = redisWithFallback(redis, inDatabase, `edupass-fallback-${process.pid}:`);
    try {
      // Redis not connected yet: the hit is counted in the database.
      expect(await counters.hit('fallback:a', 60)).toBe(1);
      expect(await inDatabase.peek('fallback:a')).toBe(1);
      expect(await counters.peekAll(['fallback:a', 'fallback:none'])).toEqual([1, 0]);
      await counters.hit('fallback:c', 60);
      expect(
        await counters.hitThenPeek('fallback:place', 60, 'fallback:c', { key: 'fallback:run', windowSeconds: 60 }),
      ).toEqual({ count: 1, other: 1, alongside: 1 });
      expect(await inDatabase.peekAll(['fallback:place', 'fallback:run'])).toEqual([1, 1]);
      await redis.connect();
      // Redis back: the reset clears the window this process counted in the database.
      await counters.reset('fallback:a');
      expect(await inDatabase.peek('fallback:a')).toBe(0);
      await counters.releaseAndReset('fallback:place', ['fallback:c']);
      expect(await inDatabase.peek('fallback:c')).toBe(0);
      // A process that never counted there leaves the database alone: one write fewer per sign-in.
      const otherRedis = new Redis(redisUrl ?? '', { lazyConnect: true });
      await otherRedis.connect();
      const other = redisWithFallback(otherRedis, inDatabase, `edupass-fallback-${process.pid}:`);
      await inDatabase.hit('fallback:b', 60);
      await other.hit('fallback:b', 60);
      await other.reset('fallback:b');
      expect(await other.peek('fallback:b')).toBe(0);
      expect(await inDatabase.peek('fallback:b')).toBe(1);
      await other.close();
    } finally {
      await counters.close();
    }
  });

  test('REDIS_URL is accepted by the configuration', () => {
    expect(loadConfig({ REDIS_URL: redisUrl }).redisUrl).toBe(redisUrl);
  });
});
