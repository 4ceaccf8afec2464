/**
 * Console dashboard query times per events store, on events generated inside each database:
 *
 *   node bench/usage/run.mjs dashboards        # CH_EVENTS=10000000 PG_EVENTS=2000000 SQLITE_EVENTS=2000000
 *
 * ClickHouse fills itself with `INSERT … SELECT … FROM numbers(n)`, PostgreSQL with `generate_series`,
 * SQLite with a recursive CTE; the SQL stores' rollups are built from the generated rows as ingestion
 * would have kept them. The events span 30 days (20 keys, 200 000 devices, 50 000 users, a tenth of
 * them timed), with a tenth as many beacons. ClickHouse is then settled as the hourly sweep settles it
 * (EventsStore.settle). Each query runs through the store's own code (EventsStore) three times; the
 * table gives the median, in ms, for the last 7 days and all 30.
 *
 * CH_DATA_DIR=/some/dir keeps the scratch ClickHouse there: a later run on it skips generating (the
 * schema is brought up to date at open, and the sweep settles what it has not settled yet).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { createTestDatabase } from '@edupass/test-kit/databases';
import { sql } from 'kysely';
import { openStore, type Store } from '../../packages/server/src/store/db.ts';
import { migrate } from '../../packages/server/src/store/migrate.ts';
import { openClickHouseEvents } from '../../packages/server/src/store/usage/clickhouse-events.ts';
import { sqlEventsStore } from '../../packages/server/src/store/usage/events-sql.ts';
import type { EventsStore, Window } from '../../packages/server/src/store/usage/events-store.ts';
import { startScratchClickHouse } from '../../scripts/scratch-clickhouse.mjs';
import { DAY_MS, END, generated, START } from './generate.ts';

const counts = {
  clickhouse: Number(process.env.CH_EVENTS ?? 10_000_000),
  postgres: Number(process.env.PG_EVENTS ?? 2_000_000),
  sqlite: Number(process.env.SQLITE_EVENTS ?? 2_000_000),
};
const quiet = { info() {}, warn() {}, error() {} };

const QUERIES: [string, (store: EventsStore, w: Window) => Promise<unknown>][] = [
  ['events per key per day', (s, w) => s.eventCounts(w, DAY_MS, undefined)],
  ['events per hour, one key', (s, w) => s.eventCounts(w, 3_600_000, 'key_3')],
  ['unique devices, users, events', (s, w) => s.uniques(w)],
  ['duration p50/p75/p90/p99', (s, w) => s.durationPercentiles(w, 'key_0', [0.5, 0.75, 0.9, 0.99])],
  ['JS errors by message', (s, w) => s.errorCounts(w, 100)],
  ['API failure rates', (s, w) => s.apiOutcomes(w, 200)],
  ['vital p75 (LCP)', (s, w) => s.vitalPercentile(w, 'LCP', 0.75)],
  ['error groups', (s, w) => s.errorGroups(w, 100)],
  ['API failure codes', (s, w) => s.apiCodes(w, 500)],
  ['vitals p75 per day', (s, w) => s.vitalsSeries(w, DAY_MS)],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const timeQueries = async (store: EventsStore) => {
  const windows: Window[] = [
    { product: 'edupass', from: END - 7 * DAY_MS, to: END },
    { product: 'edupass', from: START, to: END },
  ];
  const times: number[][] = [];
  for (const [label, run] of QUERIES) {
    process.stdout.write(`  ${label}…`);
    const row: number[] = [];
    for (const w of windows) {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await run(store, w);
        runs.push(performance.now() - started);
      }
      row.push(median(runs));
    }
    console.log(` ${row.map((ms) => Math.round(ms)).join(' / ')} ms`);
    times.push(row);
  }
  return times;
};

const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await work();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
};

/** CH_DATA_DIR keeps the scratch ClickHouse's directory: a later run on it skips generating. */
const keptDir = process.env.CH_DATA_DIR;

const onClickHouse = async () => {
  const server = await startScratchClickHouse({ dir: keptDir });
  const spool = mkdtempSync(join(tmpdir(), 'edupass-bench-spool-'));
  try {
    const target = { url: server.url, database: 'bench', username: 'default', password: '' };
    const store = await openClickHouseEvents({
      target,
      spoolDir: spool,
      logger: quiet,
      now: Date.now,
      requestTimeoutMs: 600_000,
    });
    const client = createClient({
      url: server.url,
      database: 'bench',
      request_timeout: 3_600_000,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const [held] = await (
      await client.query({ query: 'SELECT count() AS n FROM usage_events', format: 'JSONEachRow' })
    ).json<{ n: string }>();
    if (Number(held?.n) === counts.clickhouse) console.log(`ClickHouse: ${held?.n} events kept in ${keptDir}`);
    else if (Number(held?.n) > 0) throw new Error(`${keptDir} holds ${held?.n} events: remove it to generate anew`);
    else {
      await timed(`ClickHouse: ${counts.clickhouse.toLocaleString('en')} events generated`, async () => {
        for (const statement of generated.clickhouse(counts.clickhouse)) await client.command({ query: statement });
      });
    }
    await client.close();
    // What the hourly sweep does: settle the closed hours and days the dashboards read.
    const settled = await timed('ClickHouse: sweep settled the closed hours and days', () => store.settle(Date.now()));
    console.log(`  ${settled.hours} hours, ${settled.days} days settled`);
    const times = await timeQueries(store);
    await store.close();
    return times;
  } finally {
    await (keptDir ? server.stop() : server.remove());
    rmSync(spool, { recursive: true, force: true });
  }
};

const onSql = async (kind: 'postgres' | 'sqlite') => {
  process.env.EDUPASS_TEST_DB = kind;
  const database = await createTestDatabase();
  let store: Store | undefined;
  try {
    store = openStore(database.url);
    await migrate(store);
    const db = store.db;
    await timed(`${kind}: ${counts[kind].toLocaleString('en')} events generated, with rollups`, async () => {
      for (const statement of generated[kind](counts[kind])) await sql.raw(statement).execute(db);
    });
    if (kind === 'postgres') await sql`VACUUM ANALYZE`.execute(db);
    else await sql`ANALYZE`.execute(db);
    return await timeQueries(sqlEventsStore(db));
  } finally {
    await store?.close();
    await database.drop();
  }
};

const results: [string, number[][]][] = [];
if (counts.clickhouse > 0) results.push([`ClickHouse ${counts.clickhouse / 1e6} M`, await onClickHouse()]);
if (counts.postgres > 0) results.push([`PostgreSQL ${counts.postgres / 1e6} M`, await onSql('postgres')]);
if (counts.sqlite > 0) results.push([`SQLite ${counts.sqlite / 1e6} M`, await onSql('sqlite')]);

const header = results.map(([name]) => `${name} (7 d / 30 d)`.padStart(30)).join('');
console.log(`\n${'query, ms (median of 3)'.padEnd(32)}${header}`);
QUERIES.forEach(([label], q) => {
  const cells = results.map(([, times]) => {
    const [week, month] = times[q] ?? [];
    return `${Math.round(week ?? 0)} / ${Math.round(month ?? 0)}`.padStart(30);
  });
  console.log(`${label.padEnd(32)}${cells.join('')}`);
});
