/**
 * Ingestion throughput on embedded SQLite, as a ratio to raw inserts of the same rows in the same run.
 *
 *   node bench/usage/run.mjs ingest     # bundles this file and runs it
 *
 * The server runs as `npm start` runs it (a child process, its own core when taskset exists); this
 * process sends the batches over HTTP from the other core, as many tracker pages would: EVENTS events
 * in batches of PER_BATCH, CONCURRENCY requests in flight. The baselines insert the very same rows
 * with the store's own insert (one transaction per batch), and with one prepared statement in a
 * single transaction (SQLite's ceiling on this machine). Each is given as wall-clock events/s and as
 * events per CPU second of the process doing the work, the steadier figure on a shared machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleServer } from '@edupass/test-kit/child-server';
import SQLite from 'better-sqlite3';
import { openStore } from '../../packages/server/src/store/db.ts';
import { migrate } from '../../packages/server/src/store/migrate.ts';
import { usageDb, writeUsage } from '../../packages/server/src/store/usage/events.ts';
import { batches, CONCURRENCY, describeLoad, EVENTS, httpIngestion, line, ownCpuSeconds, rowsOf } from './load.ts';

const scratch = mkdtempSync(join(tmpdir(), 'edupass-bench-'));
const bundle = await bundleServer();
try {
  // 1. Over HTTP, through the whole server.
  const http = await httpIngestion(bundle, { DATABASE_URL: join(scratch, 'http.db') });
  const httpSeconds = http.seconds;
  const httpCpu = http.cpu;

  // 2. The store's insert, one transaction per batch, in this process.
  const store = openStore(join(scratch, 'raw.db'));
  await migrate(store);
  const rows = batches.map(rowsOf);
  const rawStarted = performance.now();
  const rawCpuBefore = ownCpuSeconds();
  for (const batchRows of rows) await writeUsage(usageDb(store.db), { events: batchRows, beacons: [] });
  const rawSeconds = (performance.now() - rawStarted) / 1000;
  const rawCpu = ownCpuSeconds() - rawCpuBefore;
  await store.close();

  // 3. SQLite's ceiling: one prepared statement, one transaction, no Kysely.
  const ceilingStore = openStore(join(scratch, 'ceiling.db'));
  await migrate(ceilingStore);
  await ceilingStore.close();
  const sqlite = new SQLite(join(scratch, 'ceiling.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const flat = rows.flat();
  const columns = Object.keys(flat[0]!);
  const insert = sqlite.prepare(
    `INSERT INTO usage_events (${columns.join(',')}) VALUES (${columns.map((c) => `@${c}`).join(',')}) ON CONFLICT DO NOTHING`,
  );
  const ceilingStarted = performance.now();
  const ceilingCpuBefore = ownCpuSeconds();
  sqlite.transaction(() => {
    for (const row of flat) insert.run(row);
  })();
  const ceilingSeconds = (performance.now() - ceilingStarted) / 1000;
  const ceilingCpu = ownCpuSeconds() - ceilingCpuBefore;
  sqlite.close();

  describeLoad(http.pinned);
  line('HTTP ingestion (server process: HTTP, validate, commit)', httpSeconds, httpCpu);
  line('raw store insert, one transaction per batch', rawSeconds, rawCpu);
  line('raw prepared insert, one transaction (SQLite ceiling)', ceilingSeconds, ceilingCpu);
  console.log(
    `ratio ingestion / raw per-batch inserts: wall ${(rawSeconds / httpSeconds).toFixed(2)}×, CPU ${(rawCpu / httpCpu).toFixed(2)}×`,
  );
  console.log(
    `ratio ingestion / SQLite ceiling:        wall ${(ceilingSeconds / httpSeconds).toFixed(2)}×, CPU ${(ceilingCpu / httpCpu).toFixed(2)}×`,
  );
  // The same figures as one JSON line, last, for bench/server's table.
  console.log(
    JSON.stringify({
      events: EVENTS,
      concurrency: CONCURRENCY,
      httpEventsPerSecond: EVENTS / httpSeconds,
      httpEventsPerCpuSecond: EVENTS / httpCpu,
      ceilingEventsPerSecond: EVENTS / ceilingSeconds,
      ceilingEventsPerCpuSecond: EVENTS / ceilingCpu,
      vsCeilingWall: ceilingSeconds / httpSeconds,
      vsCeilingCpu: ceilingCpu / httpCpu,
    }),
  );
} finally {
  bundle.remove();
  rmSync(scratch, { recursive: true, force: true });
}
