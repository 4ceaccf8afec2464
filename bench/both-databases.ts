/**
 * The benches' databases: `onBothDatabases` runs a bench on embedded SQLite (a scratch file) and then on
 * PostgreSQL (EDUPASS_BENCH_PG_URL, default the local server; a scratch database is created and
 * dropped), `run(label, databaseUrl)` each time; `PG_URL`, the PostgreSQL server the benches use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PG_URL = process.env.EDUPASS_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const onBothDatabases = async (name: string, run: (label: string, databaseUrl: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  try {
    await run('sqlite', join(dir, 'bench.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const database = `bench_${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  try {
    const url = new URL(PG_URL);
    url.pathname = `/${database}`;
    await run('postgres', url.href);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
};
