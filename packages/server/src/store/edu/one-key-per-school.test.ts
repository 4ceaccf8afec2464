/**
 * Migration 047 on a database that has data: the identities school connectors linked move into the
 * school's keys under their school, their hashes as they were (a sign-in then finds them and writes the
 * school's key: federation/cas/sign-in.test.ts); classes of one school and year that shared a name keep
 * it on the first and take their id on the others, and the unique index then refuses a second one.
 */
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../db.ts';
import { migrate } from '../migrate.ts';
import { migrationsFor } from '../migrations/index.ts';

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase();
  store = openStore(database.url);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

describe('migration 047, one key per school', () => {
  test('moves the connectors’ identities under their schools and makes class names unique per school and year', async () => {
    const all = migrationsFor(store.dialect);
    await migrate(store, Object.fromEntries(Object.entries(all).filter(([name]) => name < '047')));
    // The tables as they were before 047, which the current schema types no longer name.
    const db = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db
      .insertInto('school_connectors')
      .values([
        {
          id: 1,
          school_id: 7,
          code: 'cas-7',
          kind: 'cas',
          name: 'CAS',
          settings: '{}',
          mapping: '{}',
          enabled: 1,
          created_at: 1,
        },
        {
          id: 2,
          school_id: 8,
          code: 'saml-8',
          kind: 'saml',
          name: 'SAML',
          settings: '{}',
          mapping: '{}',
          enabled: 1,
          created_at: 1,
        },
      ])
      .execute();
    await db
      .insertInto('school_identities')
      .values([
        { connector_id: 1, subject_hash: 'older-hash-a', user_id: 41, created_at: 5 },
        { connector_id: 2, subject_hash: 'older-hash-b', user_id: 42, created_at: 6 },
      ])
      .execute();
    const klass = (id: number, school_id: number, name: string, school_year: string) => ({
      id,
      school_id,
      name,
      grade: 3,
      school_year,
      created_at: id,
    });
    await db
      .insertInto('classes')
      .values([
        klass(11, 7, '三年级二班', '2026-2027'),
        klass(12, 7, '三年级二班', '2026-2027'),
        klass(13, 7, '三年级二班', '2025-2026'),
        klass(14, 8, '三年级二班', '2026-2027'),
      ])
      .execute();

    await migrate(store, all);
    const keys = await store.db.selectFrom('school_person_keys').selectAll().orderBy('user_id').execute();
    expect(
      keys.map((k) => [Number(k.school_id), k.key_hash, Number(k.user_id), k.source, Number(k.created_at)]),
    ).toEqual([
      [7, 'older-hash-a', 41, 'cas', 5],
      [8, 'older-hash-b', 42, 'saml', 6],
    ]);
    const tables =
      store.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where name = 'school_identities'`.execute(store.db)
        : await sql<{
            name: string;
          }>`select tablename as name from pg_tables where tablename = 'school_identities'`.execute(store.db);
    expect(tables.rows).toEqual([]);
    const classes = await store.db.selectFrom('classes').select(['id', 'name']).orderBy('id').execute();
    expect(classes.map((c) => [Number(c.id), c.name])).toEqual([
      [11, '三年级二班'],
      [12, '三年级二班（12）'],
      [13, '三年级二班'],
      [14, '三年级二班'],
    ]);
    await expect(
      store.db
        .insertInto('classes')
        .values(klass(15, 7, '三年级二班', '2026-2027'))
        .execute(),
    ).rejects.toThrow();
  });
});
