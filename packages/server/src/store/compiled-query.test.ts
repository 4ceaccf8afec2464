/**
 * A query compiled once runs in every transaction of its store (compiled-query.ts keeps it under the
 * dialect's adapter the store shares with them): each run writes through its own transaction, is
 * committed or rolled back with it, and leaves the store's own runs alone.
 */
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { compiledOnce } from './compiled-query.ts';
import { openStore, type Store } from './db.ts';
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
