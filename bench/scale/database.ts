/**
 * A scratch PostgreSQL database per size: created, migrated and given its first-start data by the
 * server's own `createContext` (as a first start does), then filled by the seeding SQL, its
 * secondary indexes dropped for the bulk load and built again after it from their own definitions
 * (the schema ends as migrated), its sequences moved on, and ANALYZEd. Dropped at the end.
 */
import { withPgClient } from '@edupass/test-kit/pg-client';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../../packages/server/src/config/config.ts';
import { createContext } from '../../packages/server/src/context.ts';
import { countFromRows } from '../../packages/server/src/store/migrations/044-report-counters.ts';
import { PG_URL } from '../both-databases.ts';
import { type Layout, layoutOf, type Size } from './layout.ts';
import { log } from './log.ts';
import { logSteps, rollupSteps } from './seed-logs.ts';
import { peopleSteps, SEQUENCES_SQL, type Step } from './seed-people.ts';
import { type Targets, targetSteps, targetsOf } from './targets.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createContext>[1];

export const urlOf = (name: string) => {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.href;
};

export const createDatabase = (name: string) => withPgClient(PG_URL, (c) => c.query(`CREATE DATABASE ${name}`));
export const dropDatabase = (name: string) =>
  withPgClient(PG_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

/** Migrates the new database and writes its first-start data (products, agreements, keyring) as the server does. */
const firstStart = async (config: Config): Promise<string> => {
  const ctx = await createContext(config, silent);
  try {
    const product = await ctx.db.selectFrom('products').select('product_code').executeTakeFirstOrThrow();
    return product.product_code;
  } finally {
    await ctx.close();
  }
};

/** Runs the steps one by one, each line saying what was written and how fast. */
const runSteps = async (client: pg.Client, label: string, steps: Step[]) => {
  for (const step of steps) {
    const started = performance.now();
    const result = await client.query(step.sql);
    const seconds = (performance.now() - started) / 1000;
    const rows = result.rowCount ?? step.rows;
    log(`${label}: ${step.name}: ${rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s`);
  }
};

/** The secondary indexes (not those behind a primary key or unique constraint), with their definitions. */
const secondaryIndexes = async (client: pg.Client) =>
  (
    await client.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
       where i.schemaname = 'public'
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    )
  ).rows;

const rebuildIndexes = async (client: pg.Client, label: string, indexes: { name: string; definition: string }[]) => {
  for (const index of indexes) {
    const started = performance.now();
    await client.query(index.definition);
    log(`${label}: index ${index.name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
};

/** The yearly report's counters, as events would have kept them, from the rows seeded (migration 044's fill). */
const countedAsEventsWould = async (url: string, label: string) => {
  const started = performance.now();
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  try {
    await sql`delete from report_counters`.execute(db);
    await sql`delete from report_people_read`.execute(db);
    await countFromRows(db, 'postgres');
  } finally {
    await db.destroy();
  }
  log(`${label}: the yearly report's counters in ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

export interface Seeded {
  layout: Layout;
  targets: Targets;
  seedSeconds: number;
  bytes: number;
}

/** Creates, migrates and fills the database of `size`; `count` targets of each kind. */
export const seedDatabase = async (config: Config, size: Size, count: number): Promise<Seeded> => {
  const started = performance.now();
  const label = size.label;
  const product = await firstStart(config);
  const layout = layoutOf(size);
  const targets = targetsOf(layout, count);
  const now = Date.now();
  return withPgClient(config.databaseUrl, async (client) => {
    await client.query("set synchronous_commit = off; set maintenance_work_mem = '256MB'");
    const indexes = await secondaryIndexes(client);
    for (const index of indexes) await client.query(`drop index ${index.name}`);
    log(
      `${label}: ${layout.users.toLocaleString('en')} accounts, ${size.rows.toLocaleString('en')} rows a growing table`,
    );
    await runSteps(client, label, [...peopleSteps(layout, now), ...logSteps(layout, now, product)]);
    // The target rows take their ids from the sequences, past the ids given above.
    await client.query(SEQUENCES_SQL);
    await runSteps(client, label, [...targetSteps(layout, targets, now, product), ...rollupSteps(layout)]);
    await rebuildIndexes(client, label, indexes);
    await client.query(SEQUENCES_SQL);
    await countedAsEventsWould(config.databaseUrl, label);
    const analyzed = performance.now();
    await client.query('analyze');
    log(`${label}: analyze in ${((performance.now() - analyzed) / 1000).toFixed(1)} s`);
    const bytes = Number((await client.query('select pg_database_size(current_database()) as b')).rows[0].b);
    return { layout, targets, seedSeconds: (performance.now() - started) / 1000, bytes };
  });
};

/** Runs `sql` with EXPLAIN (ANALYZE, BUFFERS) on the database; answers the plan's text. */
export const explain = (url: string, sql: string, params: unknown[] = []) =>
  withPgClient(url, async (client) =>
    (await client.query(`explain (analyze, buffers) ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n'),
  );
