/**
 * A fresh database per test server: a SQLite file in a temp dir, or a new PostgreSQL database
 * (EDUPASS_TEST_DB=postgres) on the server at EDUPASS_TEST_PG_URL, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const TEST_PG_URL = process.env.EDUPASS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const withAdmin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};

const createPostgres = async (): Promise<TestDatabase> => {
  const name = `edupass_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
};

const createSqlite = (): TestDatabase => {
  const dir = mkdtempSync(join(tmpdir(), 'edupass-test-'));
  return { url: join(dir, 'edupass.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
};

export const testDatabaseKind = (): 'sqlite' | 'postgres' =>
  process.env.EDUPASS_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export const createTestDatabase = (): Promise<TestDatabase> =>
  testDatabaseKind() === 'postgres' ? createPostgres() : Promise.resolve(createSqlite());
