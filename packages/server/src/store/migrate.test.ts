/**
 * Migrations run once and whole: servers started at the same moment on one new database all come up
 * with the schema built once, and a migration that fails leaves the database as it was.
 */

import { bundleServer, type ChildServer, startChildServer } from '@edupass/test-kit/child-server';
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import type { Kysely, Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from './db.ts';
import { migrate } from './migrate.ts';
import { migrationsFor } from './migrations/index.ts';

const withStore = async <T>(url: string, work: (store: Store) => Promise<T>): Promise<T> => {
  const store = openStore(url);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
};

const tableNames = async (store: Store) =>
  (await store.db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);

/** The migrations recorded as applied (none where even the record table was rolled back). */
const appliedMigrations = async (store: Store) => {
  if (!(await tableNames(store)).includes('kysely_migration')) return [];
  const rows = await (store.db as unknown as Kysely<{ kysely_migration: { name: string } }>)
    .selectFrom('kysely_migration')
    .select('name')
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
};

describe('server processes starting at once on one new database', () => {
  let bundle: Awaited<ReturnType<typeof bundleServer>>;
  let database: TestDatabase;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    bundle = await bundleServer();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    bundle.remove();
    await database.drop();
  });

  it('all three start and answer, and each migration is applied once', async () => {
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'warn' };
    const started = await Promise.allSettled([0, 1, 2].map(() => startChildServer(bundle.file, env)));
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    expect(started.map((s) => (s.status === 'fulfilled' ? 'started' : String(s.reason)))).toEqual([
      'started',
      'started',
      'started',
    ]);
    for (const server of servers) {
      const agreements = await fetch(`${server.url}/tiger/v3/web/accounts/agreements`);
      expect(agreements.status).toBe(200);
    }
    await withStore(database.url, async (store) => {
      expect(await appliedMigrations(store)).toEqual(Object.keys(migrationsFor(store.dialect)).sort());
    });
    // Three processes migrating one new database on a loaded 2-core machine: each may take the
    // three minutes startChildServer allows.
  }, 240_000);
});

describe('a migration that fails', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('is reported by name, and nothing of its run stays: not the tables before it, not its record', async () => {
    const migrations: Record<string, Migration> = {
      '001-first': { up: (db) => db.schema.createTable('first_table').addColumn('id', 'integer').execute() },
      '002-broken': {
        up: async (db) => {
          await db.schema.createTable('second_table').addColumn('id', 'integer').execute();
          await db.schema.createTable('second_table').addColumn('id', 'integer').execute();
        },
      },
    };
    await withStore(database.url, async (store) => {
      await expect(migrate(store, migrations)).rejects.toThrow(/^Migration 002-broken failed: /);
      const tables = await tableNames(store);
      expect(tables).not.toContain('first_table');
      expect(tables).not.toContain('second_table');
      expect(await appliedMigrations(store)).toEqual([]);

      // Mended, the same run applies whole.
      migrations['002-broken'] = {
        up: (db) => db.schema.createTable('second_table').addColumn('id', 'integer').execute(),
      };
      expect(await migrate(store, migrations)).toEqual(['001-first', '002-broken']);
      expect(await tableNames(store)).toEqual(expect.arrayContaining(['first_table', 'second_table']));
    });
  });
});
