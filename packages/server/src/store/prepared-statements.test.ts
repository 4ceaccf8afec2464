import { createTestDatabase, type TestDatabase, testDatabaseKind } from '@edupass/test-kit/databases';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { unavailableService } from '../http/unavailable.ts';
import { openStore, type Store } from './db.ts';
import { LONGEST_NAMED, NAMED_FROM_RUN, RESULT_TYPE_CHANGED } from './prepared-statements.ts';

// The statements of one connection: a transaction keeps Kysely on one.
const preparedOn = async (db: Kysely<never>, run: (tx: Kysely<never>) => Promise<unknown>) =>
  db.transaction().execute(async (tx) => {
    await run(tx);
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(tx);
    return rows.map((row) => row.statement);
  });

const LOOKUP = 'select * from "lessons" where "id" = $1';
const lookup = (db: Kysely<never>, id: number) =>
  sql<Record<string, unknown>>`select * from "lessons" where "id" = ${id}`.execute(db);

describe.skipIf(testDatabaseKind() !== 'postgres')('statements prepared once per connection (PostgreSQL)', () => {
  let database: TestDatabase;
  let prepared: Store;
  let unnamed: Store;
  let other: pg.Client;
  const dbOf = (store: Store) => store.db as unknown as Kysely<never>;

  beforeAll(async () => {
    database = await createTestDatabase();
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query('create table lessons (id bigint primary key, title text not null)');
    await other.query(`insert into lessons values (1, 'Reading'), (2, 'Numbers')`);
    prepared = openStore(database.url, { poolSize: 1 });
    unnamed = openStore(database.url, { poolSize: 1, preparedStatements: false });
  });

  afterAll(async () => {
    await prepared?.close();
    await unnamed?.close();
    await other?.end();
    await database?.drop();
  });

  test('a statement with values run again and again is prepared on the connection once; one run once is not', async () => {
    const statements = await preparedOn(dbOf(prepared), async (tx) => {
      for (let run = 1; run <= NAMED_FROM_RUN + 1; run++) {
        expect((await lookup(tx, 1 + (run % 2))).rows).toEqual([
          run % 2 ? { id: 2, title: 'Numbers' } : { id: 1, title: 'Reading' },
        ]);
      }
      await sql`select ${'once'}::text as word`.execute(tx);
      // A text longer than LONGEST_NAMED (a write of many rows) is never prepared, however often it runs.
      const padding = sql.raw(`/* ${'x'.repeat(LONGEST_NAMED)} */`);
      for (let run = 1; run <= NAMED_FROM_RUN + 1; run++)
        await sql`select ${run}::int as long_one ${padding}`.execute(tx);
    });
    expect(statements.filter((s) => s === LOOKUP)).toHaveLength(1);
    expect(statements.some((s) => s.includes('as word'))).toBe(false);
    expect(statements.some((s) => s.includes('long_one'))).toBe(false);
    // Statements without values (BEGIN, the catalogue read itself) are not.
    expect(statements.every((s) => s.includes('$1'))).toBe(true);
  });

  test('DATABASE_PREPARED_STATEMENTS=0: nothing is prepared (a pooler that drops them between transactions)', async () => {
    const statements = await preparedOn(dbOf(unnamed), async (tx) => {
      expect((await lookup(tx, 1)).rows).toHaveLength(1);
    });
    expect(statements).toEqual([]);
  });

  test('a rolling upgrade that adds a column: the statement is prepared again, answered 503 only inside a transaction', async () => {
    const db = dbOf(prepared);
    // Run often enough to be prepared (on the store's one connection).
    for (let run = 1; run <= NAMED_FROM_RUN; run++) {
      expect((await lookup(db, 1)).rows).toEqual([{ id: 1, title: 'Reading' }]);
    }
    // Another instance migrates: `select *` now answers three columns.
    await other.query(`alter table lessons add column room text not null default 'A1'`);
    // Outside a transaction the refused statement is prepared anew and run again at once.
    expect((await lookup(db, 1)).rows).toEqual([{ id: 1, title: 'Reading', room: 'A1' }]);

    await other.query(`alter table lessons add column teacher text not null default ''`);
    // Inside one the transaction is lost: the request is answered "try again", never a 500.
    const refused = await db
      .transaction()
      .execute((tx) => lookup(tx, 2))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(String(refused)).toContain(RESULT_TYPE_CHANGED);
    expect(unavailableService(refused)).toBe('database (its schema was just upgraded)');
    // The next run prepares it from the new columns.
    expect((await lookup(db, 2)).rows).toEqual([{ id: 2, title: 'Numbers', room: 'A1', teacher: '' }]);
  });
});
