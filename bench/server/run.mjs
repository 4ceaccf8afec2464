#!/usr/bin/env node
// Server bench (not a test): the EduPass server as deployed (request logging on, LOG_LEVEL=info, to a
// file) beside baselines measured in the same run: the profile read beside a bare node:http handler,
// server CPU per token refresh, the login rate beside the raw argon2id rate (and a sign-in's own work,
// on a second server whose hashes are cheap), and SQLite ingestion beside its single-transaction
// ceiling (bench/usage/ingest.ts).
// See bench/server/README.md. Usage: npm run bench:server  (or node bench/server/run.mjs)
// Knobs: BENCH_PAIRS (10), BENCH_SLICE (s, 2), BENCH_DURATION (s per measurement, 5), BENCH_RUNS (3),
// BENCH_LOGIN_SLICE (s, 4), BENCH_CONNECTIONS (50), BENCH_LOGIN_CONNECTIONS (8), BENCH_SERVER_CORE (0), BENCH_CLIENT_CORE (1),
// BENCH_SERVER_BUNDLE (another server bundle to measure), BENCH_LOG_LEVEL (info), BENCH_INGEST_EVENTS
// (50000; 0 skips ingestion), BENCH_CPU_PROF (a directory: the server writes a CPU profile there).
// This file runs the steps in order; settings.mjs holds the knobs, processes.mjs the children,
// measurement.mjs what is read from /proc, flows.mjs the measurements, report.mjs the table and JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestion, measurementRounds, measurementSteps, takeLoginPairs, takeProfilePairs, warmUp } from './flows.mjs';
import { n, x } from './format.mjs';
import { linesOf, loadAverage, machineTicks, peakMemoryMb } from './measurement.mjs';
import { pinned, startChild, stopChild } from './processes.mjs';
import {
  disagreeing,
  loginThreadsOf,
  printNotes,
  printTable,
  printWarning,
  summarise,
  writeReport,
} from './report.mjs';
import {
  CLIENT_CORE,
  CONNECTIONS,
  CPU_PROF,
  DURATION,
  here,
  INGEST_EVENTS,
  LOG_LEVEL,
  LOGIN_CONNECTIONS,
  LOGIN_SLICE,
  log,
  PAIRS,
  RUNS,
  SERVER_BUNDLE,
  SERVER_CORE,
  SLICE,
  started,
  TARGETS,
} from './settings.mjs';
import { bundleBench, PHONE, serverEnvironment, signUpBenchUser } from './setup.mjs';

// The bench keeps both cores busy itself, so only the load before it starts tells of other work.
const loadAtStart = loadAverage();
const ticksAtStart = machineTicks();

// 1. Bundle the server launcher and the argon2 probe.
log('bundling the server and the argon2 probe with esbuild…');
const outdir = await bundleBench();

// 2. Start both servers on the server core: EduPass on a fresh SQLite file.
const scratch = mkdtempSync(join(tmpdir(), 'edupass-bench-'));
const serverEnv = serverEnvironment(scratch, LOG_LEVEL);
log(`starting EduPass (SQLite in ${scratch}) pinned to core ${SERVER_CORE}…`);
// BENCH_SERVER_BUNDLE: measure another build of server-entry.ts instead (say, a copy of server.mjs
// bundled from an earlier commit, for a before/after run on the same machine).
const serverBundle = SERVER_BUNDLE ?? join(outdir, 'server.mjs');
const serverLog = join(scratch, 'server.log');
const profiling = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
const edupass = await startChild(SERVER_CORE, ['node', ...profiling, serverBundle], serverEnv, serverLog);
log(`server log (LOG_LEVEL=${LOG_LEVEL}) goes to ${serverLog}`);

// The same server with a cheap password hash (its own SQLite file): a sign-in's own work, measured
// without a memory-hard hash evicting it from the core's caches between requests.
const CHEAP_HASH = { memoryCost: 256, timeCost: 1, parallelism: 1 };
const cheap = await startChild(
  SERVER_CORE,
  ['node', serverBundle],
  { ...serverEnvironment(join(scratch, 'cheap-hash'), LOG_LEVEL), BENCH_PASSWORD_HASHING: JSON.stringify(CHEAP_HASH) },
  join(scratch, 'server-cheap-hash.log'),
);

// 3. One user, signed up the way a client does it.
const user = await signUpBenchUser(edupass.url);
log(`signed up ${PHONE}; profile answer is ${Buffer.byteLength(user.profileText)} bytes`);
const cheapUser = await signUpBenchUser(cheap.url);

// The baseline answers the very bytes of the profile answer and writes the access log the server
// writes for it, through pino to a file as the server does (like for like); a second one logs nothing.
const bareLog = join(scratch, 'bare.log');
const bare = await startChild(SERVER_CORE, ['node', join(here, 'bare.mjs'), user.profileText, 'log'], {}, bareLog);
const quiet = await startChild(SERVER_CORE, ['node', join(here, 'bare.mjs'), user.profileText]);
log(
  `bare node:http baselines up (one logging each request as the server does, to ${bareLog}; one logging nothing), ` +
    `pinned to core ${SERVER_CORE}; client pinned to core ${CLIENT_CORE}`,
);

const steps = measurementSteps({ servers: { edupass, cheap, bare, quiet }, outdir, scratch, user, cheapUser });
// 4. Warm-up (not recorded). 5. Profile read against bare in pairs. 6. Login against the raw check in
// pairs. 7. Rounds of the longer measurements (flows.mjs says why each is taken so).
await warmUp(steps);
const pairs = await takeProfilePairs(steps);
const loginPairs = await takeLoginPairs(steps);
const rounds = await measurementRounds(steps);

const peakMemory = { server: peakMemoryMb(edupass.child.pid), bare: peakMemoryMb(bare.child.pid) };
log(`peak resident memory (VmHWM): server ${n(peakMemory.server)} MB, logging bare handler ${n(peakMemory.bare)} MB`);
for (const server of [bare, quiet, edupass, cheap]) await stopChild(server.child);
const logged = linesOf(serverLog);
const bareLogged = linesOf(bareLog);
log(
  `the server logged ${logged.lines.toLocaleString('en-US')} lines (${Math.round(logged.bytes / 1024)} KiB), ` +
    `the logging bare handler ${bareLogged.lines.toLocaleString('en-US')} (${Math.round(bareLogged.bytes / 1024)} KiB)`,
);

// 8. SQLite ingestion beside its single-transaction ceiling.
const ingest = INGEST_EVENTS > 0 ? await ingestion(scratch) : undefined;
if (ingest)
  log(
    `ingestion: ${n(ingest.httpEventsPerCpuSecond)} events per server CPU s; ceiling ${n(ingest.ceilingEventsPerCpuSecond)}; ` +
      `ratio ${x(ingest.vsCeilingCpu)} (wall clock ${x(ingest.vsCeilingWall)})`,
  );
rmSync(scratch, { recursive: true, force: true });

// 9. Medians and quartiles, the table and its notes, the JSON.
const { summary, verdicts } = summarise({ pairs, loginPairs, rounds, ingest });
printTable(summary, verdicts, ingest);
const loadAtEnd = loadAverage();
const ticksAtEnd = machineTicks();
const stealShare = (ticksAtEnd.steal - ticksAtStart.steal) / (ticksAtEnd.total - ticksAtStart.total);
const busy = loadAtStart > 1 || stealShare > 0.05;
const disagree = disagreeing(summary);
const loginThreads = loginThreadsOf(loginPairs, rounds);
printNotes(summary, loginThreads);
printWarning({ loadAtStart, stealShare, busy, disagree });

writeReport({
  bench: 'server',
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    node: process.version,
    pinned,
    loadAverage: { start: loadAtStart, end: loadAtEnd },
    stealShare,
  },
  settings: {
    pairs: PAIRS,
    sliceSeconds: SLICE,
    loginSliceSeconds: LOGIN_SLICE,
    durationSeconds: DURATION,
    runs: RUNS,
    connections: CONNECTIONS,
    loginConnections: LOGIN_CONNECTIONS,
    serverCore: SERVER_CORE,
    clientCore: CLIENT_CORE,
    database: 'sqlite (temp file)',
    logLevel: LOG_LEVEL,
    ingestEvents: INGEST_EVENTS,
  },
  peakMemoryMb: peakMemory,
  logged,
  bareLogged,
  ingest,
  targets: TARGETS,
  verdicts,
  unreliable: busy || disagree.length > 0,
  summary,
  loginThreads,
  pairs,
  loginPairs,
  rounds,
});
log(`done; results in bench/results/server.json (took ${Math.round((Date.now() - started) / 1000)} s)`);
log('Figures are from a shared 2-core machine: compare ratios, not absolute req/s.');
