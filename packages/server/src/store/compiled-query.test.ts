/**
 * A query compiled once runs in every transaction of its store (compiled-query.ts keeps it under the
 * dialect's adapter the store shares with them): each run writes through its own transaction, is
 * committed or rolled back with it, and leaves the store's own runs alone. On SQLite, the writes of
 * one turn outside a transaction commit together (commit-group.ts), each with its own outcome, and so
 * do units of several writes that stand or fall together.
 */
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '@edupass/test-kit/databases';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groupCommittedUnit } from './commit-group.ts';
import { compiledOnce } from './compiled-query.ts';
import { openStore, type Store, sqliteConnection } from './db.ts';
import { migrate } from './migrate.ts';

let store: Store;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  store = openStore(database.url);
  await migrate(store);
});

afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const insertCounter = compiledOnce(
  (db, key: string, count: number, expiresAt: number) =>
    db.insertInto('counters').values({ key, count, expires_at: expiresAt }),
  ['', 0, 0],
);

test('one compiled query serves each transaction and the store, committed or rolled back with its own', async () => {
  const inTransaction = (key: string, fail: boolean) =>
    store.db
      .transaction()
      .execute(async (tx) => {
        await insertCounter(tx, key, 1, 1);
        if (fail) throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
  await inTransaction('compiled:first', false);
  expect(await inTransaction('compiled:second', true)).toBe('rolled back');
  await inTransaction('compiled:third', false);
  await insertCounter(store.db, 'compiled:outside', 2, 2);
  const rows = await store.db
    .selectFrom('counters')
    .select(['key', 'count'])
    .where('key', 'like', 'compiled:%')
    .orderBy('key')
    .execute();
  expect(rows.map((row) => [row.key, Number(row.count)])).toEqual([
    ['compiled:first', 1],
    ['compiled:outside', 2],
    ['compiled:third', 1],
  ]);
});

describe.runIf(testDatabaseKind() === 'sqlite')('the writes of one turn, one commit', () => {
  const sqlite = () => {
    const connection = sqliteConnection(store.db);
    if (!connection) throw new Error('not SQLite');
    return connection;
  };
  /** Frames written to the WAL by `write` (from an emptied WAL): a commit writes each page it changed. */
  const framesOf = async (write: () => Promise<unknown>) => {
    sqlite().pragma('wal_checkpoint(TRUNCATE)');
    await write();
    const [{ log }] = sqlite().pragma('wal_checkpoint(PASSIVE)') as [{ log: number }];
    return log;
  };
  const keys = (prefix: string) => Array.from({ length: 20 }, (_, i) => `${prefix}:${i}`);
  const stored = async (prefix: string) =>
    (
      await store.db.selectFrom('counters').select('key').where('key', 'like', `${prefix}:%`).orderBy('key').execute()
    ).map((row) => row.key);

  /** A refresh token's row: its session must exist, which the tests below defer to COMMIT. */
  const insertToken = compiledOnce(
    (db, tokenHash: string, sessionId: string, createdAt: number, expiresAt: number) =>
      db
        .insertInto('refresh_tokens')
        .values({ token_hash: tokenHash, session_id: sessionId, created_at: createdAt, expires_at: expiresAt }),
    ['', '', 0, 0],
  );

  test('twenty writes asked for together share a commit; asked for one after another, each has its own', async () => {
    const together = await framesOf(() =>
      Promise.all(keys('together').map((key) => insertCounter(store.db, key, 1, 1))),
    );
    const apart = await framesOf(async () => {
      for (const key of keys('apart')) await insertCounter(store.db, key, 1, 1);
    });
    expect(apart).toBeGreaterThanOrEqual(20);
    expect(together).toBeLessThan(5);
    expect(await stored('together')).toHaveLength(20);
  });

  test("a write the database refuses fails alone: the group's others are committed", async () => {
    await insertCounter(store.db, 'refused:taken', 1, 1);
    const outcomes = await Promise.allSettled(
      ['refused:a', 'refused:taken', 'refused:b'].map((key) => insertCounter(store.db, key, 1, 1)),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('UNIQUE');
    expect(await stored('refused')).toEqual(['refused:a', 'refused:b', 'refused:taken']);
  });

  test('a write that ends the transaction fails alone: the others are written again, each alone', async () => {
    sqlite().exec(
      `CREATE TEMP TRIGGER roll_back_all BEFORE INSERT ON counters WHEN NEW.key = 'ended:bad'
       BEGIN SELECT RAISE(ROLLBACK, 'the whole transaction is rolled back'); END`,
    );
    try {
      const outcomes = await Promise.allSettled(
        ['ended:a', 'ended:bad', 'ended:b'].map((key) => insertCounter(store.db, key, 1, 1)),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await stored('ended')).toEqual(['ended:a', 'ended:b']);
    } finally {
      sqlite().exec('DROP TRIGGER roll_back_all');
    }
  });

  test('a group whose commit is refused has each write run again alone: only the offending one fails', async () => {
    // Checked at COMMIT rather than at the statement: the token's session does not exist.
    sqlite().pragma('defer_foreign_keys = ON');
    const outcomes = await Promise.allSettled([
      insertCounter(store.db, 'commit:a', 1, 1),
      insertToken(store.db, 'commit:orphan', 'no such session', 1, 1),
      insertCounter(store.db, 'commit:b', 1, 1),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('FOREIGN KEY');
    expect(await stored('commit')).toEqual(['commit:a', 'commit:b']);
    expect(sqlite().inTransaction).toBe(false);
  });

  /** A unit writing `keys` one after another at once (`insertCounter.now`), then throwing if told. */
  const unit = (written: string[], fail?: string) =>
    groupCommittedUnit(
      sqlite(),
      () => {
        for (const key of written) insertCounter.now(store.db, key, 1, 1);
        if (fail !== undefined) throw new Error(fail);
        return written.length;
      },
      () => Promise.reject(new Error('no other transaction is open')),
    );

  test("units of several writes share the turn's commit; one that throws undoes its own writes only", async () => {
    let outcomes: PromiseSettledResult<unknown>[] = [];
    const frames = await framesOf(async () => {
      outcomes = await Promise.allSettled([
        insertCounter(store.db, 'unit:a', 1, 1),
        unit(['unit:b1', 'unit:b2']),
        unit(['unit:c1', 'unit:c2'], 'the unit changed its mind'),
        unit(['unit:d1', 'unit:d2']),
      ]);
    });
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain('changed its mind');
    expect(await stored('unit')).toEqual(['unit:a', 'unit:b1', 'unit:b2', 'unit:d1', 'unit:d2']);
    // One commit: the table's and its index's pages once, not once per unit.
    expect(frames).toBeLessThan(5);
    expect(sqlite().inTransaction).toBe(false);
  });

  test('a unit alone is a transaction of its own: an error part-way through leaves none of it', async () => {
    await expect(unit(['alone:1', 'alone:2'], 'stopped half-way')).rejects.toThrow('stopped half-way');
    expect(await unit(['alone:3', 'alone:4'])).toBe(2);
    expect(await stored('alone')).toEqual(['alone:3', 'alone:4']);
    expect(sqlite().inTransaction).toBe(false);
  });

  test("a unit whose group's commit is refused is run again alone, whole", async () => {
    sqlite().pragma('defer_foreign_keys = ON');
    const outcomes = await Promise.allSettled([
      unit(['rerun:a1', 'rerun:a2']),
      insertToken(store.db, 'rerun:orphan', 'no such session', 1, 1),
      unit(['rerun:b1', 'rerun:b2']),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await stored('rerun')).toEqual(['rerun:a1', 'rerun:a2', 'rerun:b1', 'rerun:b2']);
    expect(sqlite().inTransaction).toBe(false);
  });

  test("a write or a unit while another request's transaction is open waits for it, and is not rolled back with it", async () => {
    let finish = (_fail: boolean) => {};
    const decided = new Promise<boolean>((resolve) => {
      finish = resolve;
    });
    let begun = () => {};
    const open = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const transaction = store.db
      .transaction()
      .execute(async (tx) => {
        await insertCounter(tx, 'open:inside', 1, 1);
        begun();
        if (await decided) throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await open;
    let written = 0;
    const outside = insertCounter(store.db, 'open:outside', 1, 1).then(() => {
      written++;
    });
    // The unit cannot run at once inside that transaction: it takes Kysely's path, its own transaction.
    const unitOutside = groupCommittedUnit(
      sqlite(),
      () => {
        throw new Error('run at once inside another transaction');
      },
      () =>
        store.db.transaction().execute(async (tx) => {
          await insertCounter(tx, 'open:unit-1', 1, 1);
          await insertCounter(tx, 'open:unit-2', 1, 1);
          written++;
        }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(0);
    finish(true);
    expect(await transaction).toBe('rolled back');
    await Promise.all([outside, unitOutside]);
    expect(written).toBe(2);
    expect(await stored('open')).toEqual(['open:outside', 'open:unit-1', 'open:unit-2']);
  });
});
