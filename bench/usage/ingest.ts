/**
 * Ingestion throughput on embedded SQLite, as a ratio to raw inserts of the same rows in the same run.
 *
 *   node bench/usage/run.mjs            # bundles this file and runs it
 *
 * The server runs as `npm start` runs it (a child process, its own core when taskset exists); this
 * process sends the batches over HTTP from the other core, as many tracker pages would: EVENTS events
 * in batches of PER_BATCH, CONCURRENCY requests in flight. The baselines insert the very same rows
 * with the store's own insert (one transaction per batch), and with one prepared statement in a
 * single transaction (SQLite's ceiling on this machine). Each is given as wall-clock events/s and as
 * events per CPU second of the process doing the work, the steadier figure on a shared machine.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportPayload } from '@edupass/protocol';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { openStore } from '../../packages/server/src/store/db.ts';
import { migrate } from '../../packages/server/src/store/migrate.ts';
import { type NewUsageEvent, usageDb, writeUsage } from '../../packages/server/src/store/usage.ts';
import { bundleServer, startChildServer } from '../../packages/server/src/testing/child-server.ts';
import { eventId } from '../../packages/tracker/src/event-id.ts';

const EVENTS = Number(process.env.EVENTS ?? 200_000);
const PER_BATCH = Number(process.env.PER_BATCH ?? 50);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const BATCHES = Math.ceil(EVENTS / PER_BATCH);

const pin = (pid: number, core: number) => {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * CPU seconds a process has used (user + system, from /proc; Linux clock ticks are 1/100 s). On a
 * shared, busy machine wall time mostly measures the neighbours; CPU time measures the work.
 */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const ownCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

const now = Math.floor(Date.now() / 1000);
const batches: ReportPayload[] = Array.from({ length: BATCHES }, (_, n) => ({
  type: 0,
  alg: '',
  data: {
    m: { d: 1, p: 'edupass', tst: 0, h: 0 },
    e: {
      uid: randomUUID(),
      process_id: randomUUID(),
      ua: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156',
      la: 'zh-CN',
      cpu: 8,
    },
    b: Array.from({ length: PER_BATCH }, (_, k) => ({
      e: k % 5 === 0 ? 'video_watch' : 'lesson_open',
      // The tracker's own ids (time-ordered), as a real burst carries them.
      i: eventId(Date.now()),
      t: now,
      d: { lesson: n, course: 'algebra-1', position: k },
      ...(k % 5 === 0 ? { dur: 1000 + k } : {}),
    })),
  },
}));
const bodies = batches.map((b) => JSON.stringify(b));

/** The rows the service writes for a batch (same shape, so the baselines insert what ingestion inserts). */
const rowsOf = (batch: ReportPayload): NewUsageEvent[] =>
  batch.data.b.map((event) => ({
    product_code: 'edupass',
    event_id: event.i,
    event_key: event.e,
    at: event.t * 1000,
    received_at: Date.now(),
    dur: event.dur ?? null,
    data: JSON.stringify(event.d),
    device_uid: batch.data.e.uid ?? null,
    user_id: null,
    process_id: batch.data.e.process_id ?? null,
    ip: '127.0.0.1',
    ua: batch.data.e.ua ?? null,
    platform: null,
    net: null,
    language: batch.data.e.la ?? null,
    resolution: null,
    cpu: batch.data.e.cpu ?? null,
    density: null,
    is_dev: 0,
  }));

const scratch = mkdtempSync(join(tmpdir(), 'edupass-bench-'));
const bundle = await bundleServer();
try {
  // 1. Over HTTP, through the whole server.
  // PROFILE_DIR=<dir>: the server writes a CPU profile there (node --cpu-prof) when it stops.
  const profile = process.env.PROFILE_DIR;
  const server = await startChildServer(
    bundle.file,
    { DATABASE_URL: join(scratch, 'http.db'), PRODUCTS: 'edupass:edupass' },
    undefined,
    profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
  );
  const pinned = pin(server.process.pid ?? 0, 0) && pin(process.pid, 1);
  let next = 0;
  let failed = 0;
  const serverPid = server.process.pid ?? 0;
  const cpuBefore = cpuSeconds(serverPid);
  const started = performance.now();
  // autocannon (the project's load generator) rather than fetch: on one core, fetch itself ran out
  // of CPU before the server did.
  const result = await autocannon({
    url: `${server.url}/report/edupass`,
    connections: CONCURRENCY,
    amount: BATCHES,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
      },
    ],
  });
  failed = result.non2xx + result.errors;
  const httpSeconds = (performance.now() - started) / 1000;
  const httpCpu = cpuSeconds(serverPid) - cpuBefore;
  if (profile) {
    // A graceful stop, so the profile is written.
    const exited = new Promise((resolve) => server.process.once('exit', resolve));
    server.process.kill('SIGTERM');
    await exited;
  }
  await server.kill();
  if (failed > 0)
    throw new Error(`${failed} batches were refused: keep 3× each body within 30000 (PER_BATCH too large)`);

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

  const rate = (seconds: number) => Math.round(EVENTS / seconds).toLocaleString('en');
  const body = Math.max(...bodies.map((b) => b.length));
  console.log(
    `events: ${EVENTS} in ${BATCHES} batches of ${PER_BATCH} (largest body ${body} chars, 3× = ${body * 3}), ${CONCURRENCY} in flight; pinned: ${pinned}`,
  );
  console.log('                                                        wall clock        per CPU second');
  const line = (label: string, wall: number, cpu: number) =>
    console.log(`${label.padEnd(56)}${`${rate(wall)} ev/s`.padStart(14)}${`${rate(cpu)} ev/s`.padStart(20)}`);
  line('HTTP ingestion (server process: HTTP, validate, commit)', httpSeconds, httpCpu);
  line('raw store insert, one transaction per batch', rawSeconds, rawCpu);
  line('raw prepared insert, one transaction (SQLite ceiling)', ceilingSeconds, ceilingCpu);
  console.log(
    `ratio ingestion / raw per-batch inserts: wall ${(rawSeconds / httpSeconds).toFixed(2)}×, CPU ${(rawCpu / httpCpu).toFixed(2)}×`,
  );
  console.log(
    `ratio ingestion / SQLite ceiling:        wall ${(ceilingSeconds / httpSeconds).toFixed(2)}×, CPU ${(ceilingCpu / httpCpu).toFixed(2)}×`,
  );
} finally {
  bundle.remove();
  rmSync(scratch, { recursive: true, force: true });
}
