/**
 * A fresh database per test server: a SQLite file in a temp dir, or a new PostgreSQL database
 * (EDUPASS_TEST_DB=postgres) on the server at EDUPASS_TEST_PG_URL, dropped afterwards.
 *
 * `{ migrated: true }` gives one already at the newest schema, copied from a template migrated once
 * per set of migrations (a SQLite file copied; PostgreSQL's CREATE DATABASE … TEMPLATE) instead of
 * running every migration for every test server. The template's name carries a hash of the
 * migrations' sources, so a changed or added migration makes a new one. Without it (the default),
 * the database is empty, for the suites about migrating.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type pg from 'pg';
import { openStore } from '../../server/src/store/db.ts';
import { migrate } from '../../server/src/store/migrate.ts';
import { withPgClient } from './pg-client.ts';

export const TEST_PG_URL = process.env.EDUPASS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** At the newest schema (from the template), rather than empty. */
  migrated?: boolean;
}

const withAdmin = <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => withPgClient(TEST_PG_URL, run);

const MIGRATIONS_DIR = resolve(import.meta.dirname, '../../server/src/store/migrations');

/** 16 hex digits of the migrations' sources (and of the migrator): the templates' names. */
const schemaHash = (): string => {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR).sort())
    hash.update(file).update(readFileSync(join(MIGRATIONS_DIR, file)));
  hash.update(readFileSync(resolve(MIGRATIONS_DIR, '../migrate.ts')));
  return hash.digest('hex').slice(0, 16);
};

const urlOf = (name: string): string => {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

const migrateAt = async (url: string): Promise<void> => {
  const store = openStore(url, { poolSize: 1 });
  try {
    await migrate(store);
  } finally {
    await store.close();
  }
};

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated template database, made by the first process that needs it (under an advisory lock,
 * so parallel workers make it once); never connected to afterwards, as PostgreSQL requires of a template.
 */
const makePostgresTemplate = (): Promise<string> =>
  withAdmin(async (admin) => {
    const name = `edupass_template_${schemaHash()}`;
    const exists = async () =>
      (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate', [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      if (await exists()) return name;
      const building = `${name}_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      try {
        await migrateAt(urlOf(building));
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); // one left half made
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      }
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });

const createPostgres = async ({ migrated = false }: TestDatabaseOptions): Promise<TestDatabase> => {
  const name = `edupass_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  if (migrated) {
    postgresTemplate ??= makePostgresTemplate().catch((error: unknown) => {
      postgresTemplate = undefined;
      throw error;
    });
    const template = await postgresTemplate;
    await withAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  } else {
    await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  }
  return { url: urlOf(name), drop: () => withAdmin((c) => dropWhenLeft(c, name)) };
};

/**
 * Drops a test database once the connections its test closed have left it (a pool's `end()` answers
 * before its sockets have closed): terminated by FORCE while still closing, such a client throws
 * "terminating connection due to administrator command" into the test run as an uncaught error.
 * Connections still there after 3 s are forced off.
 */
const dropWhenLeft = async (admin: pg.Client, name: string): Promise<void> => {
  for (const deadline = Date.now() + 3_000; Date.now() < deadline; ) {
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
};

const SQLITE_TEMPLATES = resolve(import.meta.dirname, '../../../.tmp/db-templates');

let sqliteTemplate: Promise<string> | undefined;

/** The migrated template file; parallel workers may each make one, and the last rename wins (all alike). */
const makeSqliteTemplate = async (): Promise<string> => {
  const file = join(SQLITE_TEMPLATES, `sqlite-${schemaHash()}.db`);
  if (existsSync(file)) return file;
  mkdirSync(SQLITE_TEMPLATES, { recursive: true });
  const building = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await migrateAt(building);
    renameSync(building, file);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  }
  return file;
};

const createSqlite = async ({ migrated = false }: TestDatabaseOptions): Promise<TestDatabase> => {
  const dir = mkdtempSync(join(tmpdir(), 'edupass-test-'));
  const url = join(dir, 'edupass.db');
  if (migrated) {
    sqliteTemplate ??= makeSqliteTemplate().catch((error: unknown) => {
      sqliteTemplate = undefined;
      throw error;
    });
    copyFileSync(await sqliteTemplate, url);
  }
  return { url, drop: async () => rmSync(dir, { recursive: true, force: true }) };
};

export const testDatabaseKind = (): 'sqlite' | 'postgres' =>
  process.env.EDUPASS_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export const createTestDatabase = (options: TestDatabaseOptions = {}): Promise<TestDatabase> =>
  testDatabaseKind() === 'postgres' ? createPostgres(options) : createSqlite(options);
