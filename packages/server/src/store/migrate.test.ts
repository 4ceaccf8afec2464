/**
 * Migrations run once and whole: servers started at the same moment on one new database all come up
 * with the schema built once, and a migration that fails leaves the database as it was.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleServer, type ChildServer, startChildServer } from '@edupass/test-kit/child-server';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '@edupass/test-kit/databases';
import { type Kysely, type Migration, sql } from 'kysely';
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

/**
 * A process that holds the write lock of a new SQLite file (not yet in WAL mode) for a while, as the
 * first server does while it switches the file to WAL: resolves once the lock is held.
 */
const holdNewFileLocked = async (file: string, ms: number) => {
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import SQLite from 'better-sqlite3';
       const db = new SQLite(${JSON.stringify(file)});
       db.exec('create table held (x); begin immediate; insert into held values (1)');
       console.log('locked');
       setTimeout(() => db.exec('commit'), ${ms});`,
    ],
    { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = await once(holder.stdout, 'data');
  expect(String(line)).toBe('locked\n');
  return holder;
};

describe.runIf(testDatabaseKind() === 'sqlite')('a server opening a new SQLite file another process holds', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'edupass-wal-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('waits for the file and switches it to WAL, where SQLite itself would answer SQLITE_BUSY at once', async () => {
    const file = join(dir, 'edupass.db');
    const holder = await holdNewFileLocked(file, 1_500);
    const store = openStore(file);
    try {
      const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
      expect(rows).toEqual([{ journal_mode: 'wal' }]);
      expect(await tableNames(store)).toContain('held');
    } finally {
      await store.close();
      if (holder.exitCode === null) await once(holder, 'exit');
    }
  });
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
