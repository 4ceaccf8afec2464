/**
 * Ingestion into ClickHouse, as a ratio to a raw `@clickhouse/client` insert of the same rows in the
 * same run:
 *
 *   node bench/usage/run.mjs clickhouse
 *
 * A scratch ClickHouse (scripts/scratch-clickhouse.mjs) takes both. Over HTTP the server runs with
 * USAGE_DATABASE_URL naming it (group commit: one insert per burst of requests); the raw baseline
 * inserts the very rows the server writes, JSONEachRow, in inserts of as many rows as the server's
 * largest group commit (CONCURRENCY batches), and in one insert of everything (ClickHouse's ceiling). Afterwards every event is
 * checked present once and the spool empty.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { bundleServer } from '@edupass/test-kit/child-server';
import { ensureSchema } from '../../packages/server/src/store/usage/clickhouse-schema.ts';
import { startScratchClickHouse } from '../../scripts/scratch-clickhouse.mjs';
import {
  batches,
  CONCURRENCY,
  describeLoad,
  EVENTS,
  httpIngestion,
  line,
  ownCpuSeconds,
  PER_BATCH,
  rowsOf,
} from './load.ts';

const clickhouse = await startScratchClickHouse();
const scratch = mkdtempSync(join(tmpdir(), 'edupass-bench-'));
const bundle = await bundleServer();
const target = (database: string) => ({ url: clickhouse.url, database, username: 'default', password: '' });
try {
  // 1. Over HTTP, through the whole server.
  const spool = join(scratch, 'spool');
  const http = await httpIngestion(bundle, {
    DATABASE_URL: join(scratch, 'accounts.db'),
    USAGE_DATABASE_URL: `clickhouse://default@${new URL(clickhouse.url).host}/bench_http`,
    USAGE_SPOOL_DIR: spool,
  });
  const stored = createClient({ url: clickhouse.url, database: 'bench_http' });
  const [check] = await (
    await stored.query({
      query: 'SELECT uniqExact(event_id) AS n, count() AS rows FROM usage_events',
      format: 'JSONEachRow',
    })
  ).json<{ n: string; rows: string }>();
  await stored.close();
  if (Number(check?.n) !== EVENTS) throw new Error(`ClickHouse holds ${check?.n} events, not ${EVENTS}`);
  const spooled = readdirSync(spool).length;

  // 2. The same rows with the client alone: inserts of one HTTP burst's size, and one insert of all.
  await ensureSchema(target('bench_raw'), 600_000);
  await ensureSchema(target('bench_ceiling'), 600_000);
  const rows = batches.flatMap(rowsOf);
  const insertAll = async (database: string, size: number) => {
    const client = createClient({
      url: clickhouse.url,
      database,
      request_timeout: 600_000,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const started = performance.now();
    const cpuBefore = ownCpuSeconds();
    for (let i = 0; i < rows.length; i += size) {
      await client.insert({ table: 'usage_events', values: rows.slice(i, i + size), format: 'JSONEachRow' });
    }
    const result = { seconds: (performance.now() - started) / 1000, cpu: ownCpuSeconds() - cpuBefore };
    await client.close();
    return result;
  };
  // A group commit holds at most CONCURRENCY batches (each connection waits for its answer).
  const perInsert = CONCURRENCY * PER_BATCH;
  const raw = await insertAll('bench_raw', perInsert);
  const ceiling = await insertAll('bench_ceiling', rows.length);

  describeLoad(http.pinned);
  line('HTTP ingestion into ClickHouse (server process)', http.seconds, http.cpu);
  line(`raw client insert, ${perInsert} rows per insert`, raw.seconds, raw.cpu);
  line('raw client insert, one insert (ClickHouse ceiling)', ceiling.seconds, ceiling.cpu);
  console.log(`stored: ${check?.n} distinct events in ${check?.rows} rows; spool files left: ${spooled}`);
  console.log(
    `ratio ingestion / raw inserts of the same size: wall ${(raw.seconds / http.seconds).toFixed(2)}×, CPU ${(raw.cpu / http.cpu).toFixed(2)}×`,
  );
  console.log(`ratio ingestion / one raw insert:              wall ${(ceiling.seconds / http.seconds).toFixed(2)}×`);
} finally {
  bundle.remove();
  rmSync(scratch, { recursive: true, force: true });
  await clickhouse.remove();
}
