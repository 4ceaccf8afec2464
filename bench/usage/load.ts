/**
 * What the usage benches share: the tracker batches (EVENTS events in batches of PER_BATCH, the
 * tracker's own time-ordered ids), the rows the server writes for them, CPU time from /proc, and the
 * HTTP load (autocannon, CONCURRENCY requests in flight) against a server started as `npm start` runs it.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ReportPayload } from '@edupass/protocol';
import { type bundleServer, startChildServer } from '@edupass/test-kit/child-server';
import autocannon from 'autocannon';
import type { NewUsageEvent } from '../../packages/server/src/store/usage/events.ts';
import { eventId } from '../../packages/tracker/src/event-id.ts';

export const EVENTS = Number(process.env.EVENTS ?? 200_000);
export const PER_BATCH = Number(process.env.PER_BATCH ?? 50);
export const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
export const BATCHES = Math.ceil(EVENTS / PER_BATCH);

export const pin = (pid: number, core: number) => {
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
export const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
export const ownCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

const now = Math.floor(Date.now() / 1000);
export const batches: ReportPayload[] = Array.from({ length: BATCHES }, (_, n) => ({
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
export const bodies = batches.map((b) => JSON.stringify(b));

/** The rows the service writes for a batch (same shape, so the baselines insert what ingestion inserts). */
export const rowsOf = (batch: ReportPayload): NewUsageEvent[] =>
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

/**
 * Sends every batch over HTTP to a server started with `env` (pinned to core 0, this process to core
 * 1, where taskset exists); answers wall-clock and server CPU seconds. PROFILE_DIR=<dir>: the server
 * writes a CPU profile there (node --cpu-prof) when it stops. LOG_FILE=<file>: the server's log (at
 * LOG_LEVEL, warn unless set) goes there, as a deployment keeps it.
 */
export const httpIngestion = async (bundle: Awaited<ReturnType<typeof bundleServer>>, env: Record<string, string>) => {
  const profile = process.env.PROFILE_DIR;
  const server = await startChildServer(
    bundle.file,
    { PRODUCTS: 'edupass:edupass', ...env },
    undefined,
    profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
    process.env.LOG_FILE,
  );
  const pinned = pin(server.process.pid ?? 0, 0) && pin(process.pid, 1);
  let next = 0;
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
  const failed = result.non2xx + result.errors;
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(serverPid) - cpuBefore;
  if (profile) {
    // A graceful stop, so the profile is written.
    const exited = new Promise((resolve) => server.process.once('exit', resolve));
    server.process.kill('SIGTERM');
    await exited;
  }
  await server.kill();
  if (failed > 0)
    throw new Error(`${failed} batches were refused: keep 3× each body within 30000 (PER_BATCH too large)`);
  return { seconds, cpu, pinned };
};

export const rate = (seconds: number) => Math.round(EVENTS / seconds).toLocaleString('en');

/** One line of a result table: wall-clock events/s and events per CPU second. */
export const line = (label: string, wall: number, cpu: number) =>
  console.log(`${label.padEnd(56)}${`${rate(wall)} ev/s`.padStart(14)}${`${rate(cpu)} ev/s`.padStart(20)}`);

export const describeLoad = (pinned: boolean) => {
  const body = Math.max(...bodies.map((b) => b.length));
  console.log(
    `events: ${EVENTS} in ${BATCHES} batches of ${PER_BATCH} (largest body ${body} chars, 3× = ${body * 3}), ${CONCURRENCY} in flight; pinned: ${pinned}`,
  );
  console.log('                                                        wall clock        per CPU second');
};
