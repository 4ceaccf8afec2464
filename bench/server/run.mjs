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
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bundleBench, PHONE, refreshTokensOf, serverEnvironment, signUpBenchUser } from './setup.mjs';

const root = new URL('../../', import.meta.url).pathname;
const here = new URL('./', import.meta.url).pathname;
const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 5);
const RUNS = Number(env.BENCH_RUNS ?? 3);
const PAIRS = Number(env.BENCH_PAIRS ?? 10);
const SLICE = Number(env.BENCH_SLICE ?? 2);
const LOGIN_SLICE = Number(env.BENCH_LOGIN_SLICE ?? 4);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const LOGIN_CONNECTIONS = Number(env.BENCH_LOGIN_CONNECTIONS ?? 8);
const SERVER_CORE = env.BENCH_SERVER_CORE ?? '0';
const CLIENT_CORE = env.BENCH_CLIENT_CORE ?? '1';
const REFRESH_SESSIONS = CONNECTIONS + 20; // a reserve in case a chain breaks
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const INGEST_EVENTS = Number(env.BENCH_INGEST_EVENTS ?? 50_000);

const TARGETS = { profileVsBare: 0.75, loginVsHash: 0.9, profileP99Ms: 50, refreshCpuUs: 250, ingestVsCeiling: 0.5 };

const started = Date.now();
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
/** The machine's CPU time so far and the part of it the hypervisor gave to other guests (steal). */
const machineTicks = () => {
  const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, steal };
};
// The bench keeps both cores busy itself, so only the load before it starts tells of other work.
const loadAtStart = loadAverage();
const ticksAtStart = machineTicks();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);

const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
if (!pinned) log('taskset is not available: server and client run unpinned (figures are even noisier).');
const pin = (core, args) => (pinned ? ['taskset', ['-c', core, ...args]] : [args[0], args.slice(1)]);

const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Starts a long-running child and resolves with it and the port from its first line: on stdout, or,
 * with `logFile`, on fd 3 (its stdout then goes to that file, as a deployment sends the log).
 */
const startChild = (core, args, childEnv = {}, logFile = undefined) =>
  new Promise((resolve, reject) => {
    const [cmd, argv] = pin(core, args);
    const stdio =
      logFile === undefined ? ['ignore', 'pipe', 'inherit'] : ['ignore', openSync(logFile, 'a'), 'inherit', 'pipe'];
    const child = spawn(cmd, argv, { env: { ...env, ...childEnv }, stdio });
    children.add(child);
    child.once('exit', (code) => {
      children.delete(child);
      reject(new Error(`${args.join(' ')} exited with ${code} before it was ready`));
    });
    createInterface({ input: logFile === undefined ? child.stdout : child.stdio[3] }).once('line', (line) => {
      const { port } = JSON.parse(line);
      resolve({ child, url: `http://127.0.0.1:${port}` });
    });
  });

const stopChild = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => {
      children.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });

/** Runs a child to completion and parses the JSON line it prints last. */
const runJson = (core, args) =>
  new Promise((resolve, reject) => {
    const [cmd, argv] = pin(core, args);
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });

// Server CPU time per request, from /proc: far steadier than req/s when other work shares the
// machine, since time the server waits for a core is not counted.
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
/** utime + stime of a /proc stat file (a process's, or one thread's under task/), in seconds. */
const statCpuSeconds = (file) => {
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
};
const cpuSeconds = (pid) => {
  try {
    return statCpuSeconds(`/proc/${pid}/stat`);
  } catch {
    return Number.NaN;
  }
};
/**
 * CPU seconds of process `pid`'s main thread and of all its other threads (libuv's pool, where the
 * password hashes and the log's file writes run, and V8's helpers), from /proc/<pid>/task.
 */
const threadCpu = (pid) => {
  const split = { main: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      split[tid === String(pid) ? 'main' : 'other'] += statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return split;
};
/**
 * Runs `work` and adds the CPU µs the server process `pid` spent per successful request, in all
 * and split between its main thread and the others.
 */
const withCpu = async (pid, work) => {
  const before = cpuSeconds(pid);
  const threadsBefore = threadCpu(pid);
  const result = await work();
  const count = result.ok ?? result.checks;
  const threadsAfter = threadCpu(pid);
  const perRequest = (seconds) => (seconds * 1e6) / count;
  return {
    ...result,
    cpuUsPerRequest: perRequest(cpuSeconds(pid) - before),
    mainThreadUsPerRequest: perRequest(threadsAfter.main - threadsBefore.main),
    otherThreadsUsPerRequest: perRequest(threadsAfter.other - threadsBefore.other),
  };
};

/** The q-quantile of `values`, interpolated between neighbours (q = 0.5: the median). */
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  return sorted[below] + (sorted[Math.ceil(at)] - sorted[below]) * (at - below);
};

// 1. Bundle the server launcher and the argon2 probe.
log('bundling the server and the argon2 probe with esbuild…');
const outdir = await bundleBench();

// 2. Start both servers on the server core: EduPass on a fresh SQLite file.
const scratch = mkdtempSync(join(tmpdir(), 'edupass-bench-'));
const serverEnv = serverEnvironment(scratch, LOG_LEVEL);
log(`starting EduPass (SQLite in ${scratch}) pinned to core ${SERVER_CORE}…`);
// BENCH_SERVER_BUNDLE: measure another build of server-entry.ts instead (say, a copy of server.mjs
// bundled from an earlier commit, for a before/after run on the same machine).
const serverBundle = env.BENCH_SERVER_BUNDLE ?? join(outdir, 'server.mjs');
const serverLog = join(scratch, 'server.log');
const profiling = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : [];
const edupass = await startChild(SERVER_CORE, ['node', ...profiling, serverBundle], serverEnv, serverLog);
log(`server log (LOG_LEVEL=${LOG_LEVEL}) goes to ${serverLog}`);

// The same server with a cheap password hash (its own SQLite file): a sign-in's own work, measured
// without a memory-hard hash evicting it from the core's caches between requests.
const CHEAP_HASH = { memoryCost: 256, timeCost: 1, parallelism: 1 };
const cheapScratch = join(scratch, 'cheap-hash');
const cheapLog = join(scratch, 'server-cheap-hash.log');
const cheap = await startChild(
  SERVER_CORE,
  ['node', serverBundle],
  { ...serverEnvironment(cheapScratch, LOG_LEVEL), BENCH_PASSWORD_HASHING: JSON.stringify(CHEAP_HASH) },
  cheapLog,
);

// 3. One user, signed up the way a client does it.
const { accessToken, profileText, login, loginBody } = await signUpBenchUser(edupass.url);
log(`signed up ${PHONE}; profile answer is ${Buffer.byteLength(profileText)} bytes`);
const { loginBody: cheapLoginBody } = await signUpBenchUser(cheap.url);

// The baseline answers the very bytes of the profile answer and writes the access log the server
// writes for it, through pino to a file as the server does (like for like); a second one logs nothing.
const bareLog = join(scratch, 'bare.log');
const bare = await startChild(SERVER_CORE, ['node', join(here, 'bare.mjs'), profileText, 'log'], {}, bareLog);
const quiet = await startChild(SERVER_CORE, ['node', join(here, 'bare.mjs'), profileText]);
log(
  `bare node:http baselines up (one logging each request as the server does, to ${bareLog}; one logging nothing), ` +
    `pinned to core ${SERVER_CORE}; client pinned to core ${CLIENT_CORE}`,
);

/** Fresh sessions for the refresh measurement: one refresh token per chain. */
const freshRefreshTokens = async () => {
  const tokens = await refreshTokensOf(login, REFRESH_SESSIONS);
  const file = join(scratch, 'refresh-tokens.json');
  writeFileSync(file, JSON.stringify(tokens));
  return file;
};

const clientScript = join(here, 'client.mjs');
const measure = (job) => runJson(CLIENT_CORE, ['node', clientScript, JSON.stringify(job)]);

const steps = {
  bare: (duration) =>
    withCpu(bare.child.pid, () =>
      measure({ mode: 'bare', url: bare.url, connections: CONNECTIONS, duration, token: accessToken }),
    ),
  quiet: (duration) =>
    withCpu(quiet.child.pid, () =>
      measure({ mode: 'bare', url: quiet.url, connections: CONNECTIONS, duration, token: accessToken }),
    ),
  profile: (duration) =>
    withCpu(edupass.child.pid, () =>
      measure({ mode: 'profile', url: edupass.url, connections: CONNECTIONS, duration, token: accessToken }),
    ),
  refresh: async (duration) => {
    const tokensFile = await freshRefreshTokens();
    return withCpu(edupass.child.pid, () =>
      measure({ mode: 'refresh', url: edupass.url, connections: CONNECTIONS, duration, tokensFile }),
    );
  },
  login: (duration) =>
    withCpu(edupass.child.pid, () =>
      measure({ mode: 'login', url: edupass.url, connections: LOGIN_CONNECTIONS, duration, login: loginBody }),
    ),
  argon2: (duration) =>
    runJson(SERVER_CORE, ['node', join(outdir, 'argon2.mjs'), String(duration), String(LOGIN_CONNECTIONS)]),
  cheap: (duration) =>
    withCpu(cheap.child.pid, () =>
      measure({ mode: 'login', url: cheap.url, connections: LOGIN_CONNECTIONS, duration, login: cheapLoginBody }),
    ),
};

const describe = (name, r) =>
  (name === 'argon2'
    ? `${r.rate.toFixed(1)} checks/s (${LOGIN_CONNECTIONS} in flight)`
    : `${Math.round(r.rps).toLocaleString('en-US')} req/s, p99 ${r.p99} ms`) +
  `, server CPU ${Math.round(r.cpuUsPerRequest).toLocaleString('en-US')} µs/req` +
  (r.mainThreadUsPerRequest === undefined
    ? ''
    : ` (main thread ${n(r.mainThreadUsPerRequest)}, other threads ${n(r.otherThreadsUsPerRequest)})`) +
  (r.non2xx || r.errors || r.timeouts ? ` (non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts})` : '');

const x = (v) => `${v.toFixed(2)}×`;
const n = (v) => Math.round(v).toLocaleString('en-US');

// 4. Warm-up (not recorded).
log('warm-up round (1 s each, not recorded)…');
for (const [name, step] of Object.entries(steps))
  await step(1).then((r) => log(`  warm-up ${name}: ${describe(name, r)}`));

// 5. Profile read against bare in many short pairs, each taken back to back. Other machines' load
// on a shared host comes and goes within seconds, so two measurements far apart can differ by 2×;
// a pair sees nearly the same machine, and the median of many pairs shrugs off the pairs that did
// not. The order alternates (bare first, then profile first) so neither always runs warmer. The
// bare handler that logs nothing is measured after each pair, for the ratio without the log.
const pairs = [];
for (let i = 1; i <= PAIRS; i++) {
  const pair = {};
  for (const name of i % 2 ? ['bare', 'profile', 'quiet'] : ['profile', 'bare', 'quiet'])
    pair[name] = await steps[name](SLICE);
  pair.ratios = { profileVsBare: pair.profile.rps / pair.bare.rps, profileVsQuiet: pair.profile.rps / pair.quiet.rps };
  pair.cpuRatios = {
    profileVsBare: pair.bare.cpuUsPerRequest / pair.profile.cpuUsPerRequest,
    profileVsQuiet: pair.quiet.cpuUsPerRequest / pair.profile.cpuUsPerRequest,
  };
  log(
    `pair ${i}/${PAIRS}: bare ${describe('bare', pair.bare)}; profile ${describe('profile', pair.profile)}; ` +
      `ratio ${x(pair.ratios.profileVsBare)} (CPU ${x(pair.cpuRatios.profileVsBare)}); ` +
      `bare without log ${describe('bare', pair.quiet)}, CPU ratio ${x(pair.cpuRatios.profileVsQuiet)}`,
  );
  pairs.push(pair);
}

// 6. Login against the raw check in pairs too, for the same reason: the raw check's cost moved by a
// quarter between rounds a minute apart on this host. Slices are longer (a sign-in takes tens of ms).
const loginPairs = [];
for (let i = 1; i <= PAIRS; i++) {
  const pair = {};
  for (const name of i % 2 ? ['login', 'argon2'] : ['argon2', 'login']) pair[name] = await steps[name](LOGIN_SLICE);
  pair.ratios = { loginVsHash: pair.login.rps / pair.argon2.rate };
  pair.cpuRatios = { loginVsHash: pair.argon2.cpuUsPerRequest / pair.login.cpuUsPerRequest };
  log(
    `login pair ${i}/${PAIRS}: login ${describe('login', pair.login)}; argon2 ${describe('argon2', pair.argon2)}; ` +
      `ratio ${x(pair.ratios.loginVsHash)} (CPU ${x(pair.cpuRatios.loginVsHash)})`,
  );
  loginPairs.push(pair);
}

// 7. Rounds of the longer measurements, each with its own baseline taken beside it.
const rounds = [];
for (let round = 1; round <= RUNS; round++) {
  const results = {};
  for (const name of ['bare', 'refresh', 'cheap']) {
    results[name] = await steps[name](DURATION);
    log(`round ${round}/${RUNS} ${name.padEnd(7)} ${describe(name, results[name])}`);
  }
  results.ratios = { refreshVsBare: results.refresh.rps / results.bare.rps };
  // The same ratio from server CPU per request (what one core could do if it were all ours).
  results.cpuRatios = { refreshVsBare: results.bare.cpuUsPerRequest / results.refresh.cpuUsPerRequest };
  rounds.push(results);
}

/** The most resident memory the process has held (VmHWM), in MB. */
const peakMemoryMb = (pid) => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};
const peakMemory = { server: peakMemoryMb(edupass.child.pid), bare: peakMemoryMb(bare.child.pid) };
log(`peak resident memory (VmHWM): server ${n(peakMemory.server)} MB, logging bare handler ${n(peakMemory.bare)} MB`);
await stopChild(bare.child);
await stopChild(quiet.child);
await stopChild(edupass.child);
await stopChild(cheap.child);
/** Bytes and lines of a log file, read in chunks (a fast machine writes more than a string can hold). */
const linesOf = (file) => {
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  let lines = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    for (let at = chunk.indexOf(10); at !== -1 && at < read; at = chunk.indexOf(10, at + 1)) lines++;
  }
  closeSync(fd);
  return { bytes: statSync(file).size, lines };
};
const logged = linesOf(serverLog);
const bareLogged = linesOf(bareLog);
log(
  `the server logged ${logged.lines.toLocaleString('en-US')} lines (${Math.round(logged.bytes / 1024)} KiB), ` +
    `the logging bare handler ${bareLogged.lines.toLocaleString('en-US')} (${Math.round(bareLogged.bytes / 1024)} KiB)`,
);

// 8. SQLite ingestion beside its single-transaction ceiling (bench/usage/ingest.ts), logging as above.
const ingestion = () =>
  new Promise((resolve, reject) => {
    const child = spawn('node', [join(root, 'bench/usage/run.mjs'), 'ingest'], {
      env: { ...env, EVENTS: String(INGEST_EVENTS), LOG_LEVEL, LOG_FILE: join(scratch, 'ingest.log') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/usage ingest exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });
const ingest = INGEST_EVENTS > 0 ? await ingestion() : undefined;
if (ingest)
  log(
    `ingestion: ${n(ingest.httpEventsPerCpuSecond)} events per server CPU s; ceiling ${n(ingest.ceilingEventsPerCpuSecond)}; ` +
      `ratio ${x(ingest.vsCeilingCpu)} (wall clock ${x(ingest.vsCeilingWall)})`,
  );
rmSync(scratch, { recursive: true, force: true });

// 9. Medians and quartiles; a ratio is taken within its pair or round, then summarised.
const spread = (samples, fn) => {
  const values = samples.map(fn);
  return {
    median: quantile(values, 0.5),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
  };
};
const figures = (samples, name) => ({
  rps: spread(samples, (r) => r[name].rps ?? r[name].rate),
  p99: spread(samples, (r) => r[name].p99 ?? Number.NaN),
  cpuUsPerRequest: spread(samples, (r) => r[name].cpuUsPerRequest),
});
const ratiosOf = (samples, names) => ({
  ratios: Object.fromEntries(names.map((k) => [k, spread(samples, (r) => r.ratios[k])])),
  cpuRatios: Object.fromEntries(names.map((k) => [k, spread(samples, (r) => r.cpuRatios[k])])),
});
const fromPairs = ratiosOf(pairs, ['profileVsBare', 'profileVsQuiet']);
const fromRounds = ratiosOf(rounds, ['refreshVsBare']);
const fromLoginPairs = ratiosOf(loginPairs, ['loginVsHash']);
const ratioNames = ['profileVsBare', 'refreshVsBare', 'loginVsHash'];
const summary = {
  bare: figures(pairs, 'bare'),
  quiet: figures(pairs, 'quiet'),
  profile: figures(pairs, 'profile'),
  refresh: figures(rounds, 'refresh'),
  login: figures(loginPairs, 'login'),
  argon2: figures(loginPairs, 'argon2'),
  cheap: figures(rounds, 'cheap'),
  ratios: { ...fromPairs.ratios, ...fromRounds.ratios, ...fromLoginPairs.ratios },
  cpuRatios: { ...fromPairs.cpuRatios, ...fromRounds.cpuRatios, ...fromLoginPairs.cpuRatios },
  profilePairsAtTarget: {
    byRps: pairs.filter((p) => p.ratios.profileVsBare >= TARGETS.profileVsBare).length,
    byCpu: pairs.filter((p) => p.cpuRatios.profileVsBare >= TARGETS.profileVsBare).length,
    of: pairs.length,
  },
};
const verdicts = {
  profileVsBare: summary.ratios.profileVsBare.median >= TARGETS.profileVsBare,
  profileVsBareByCpu: summary.cpuRatios.profileVsBare.median >= TARGETS.profileVsBare,
  loginVsHash: summary.ratios.loginVsHash.median >= TARGETS.loginVsHash,
  loginVsHashByCpu: summary.cpuRatios.loginVsHash.median >= TARGETS.loginVsHash,
  profileP99: summary.profile.p99.median < TARGETS.profileP99Ms,
  refreshCpu: summary.refresh.cpuUsPerRequest.median <= TARGETS.refreshCpuUs,
  ...(ingest ? { ingestVsCeiling: ingest.vsCeilingCpu >= TARGETS.ingestVsCeiling } : {}),
};

const range = (s, f = n) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
const ok = (pass) => (pass ? 'met' : 'MISSED');
const row = (label, conn, name, ratio, target) => [
  label,
  conn,
  range(summary[name].rps, name === 'argon2' ? (v) => v.toFixed(1) : n),
  name === 'argon2' ? '–' : n(summary[name].p99.median),
  n(summary[name].cpuUsPerRequest.median),
  ratio ? range(summary.ratios[ratio], x) : '–',
  ratio ? x(summary.cpuRatios[ratio].median) : '–',
  target,
];
const rows = [
  ['measurement', 'conn.', 'req/s median (min–max)', 'p99 ms', 'CPU µs/req', 'ratio (min–max)', 'CPU ratio', 'target'],
  row('bare node:http + the same access log (pairs)', CONNECTIONS, 'bare', undefined, 'baseline'),
  row('bare node:http, no log (pairs)', CONNECTIONS, 'quiet', undefined, 'for comparison'),
  row(
    'profile read (pairs)',
    CONNECTIONS,
    'profile',
    'profileVsBare',
    `CPU ≥ ${x(TARGETS.profileVsBare)}: ${ok(verdicts.profileVsBareByCpu)} (req/s: ${ok(verdicts.profileVsBare)}); ` +
      `p99 < ${TARGETS.profileP99Ms} ms: ${ok(verdicts.profileP99)}`,
  ),
  row('profile read vs bare, no log', CONNECTIONS, 'profile', 'profileVsQuiet', 'for comparison'),
  row(
    'token refresh',
    CONNECTIONS,
    'refresh',
    'refreshVsBare',
    `CPU ≤ ${TARGETS.refreshCpuUs} µs/req: ${ok(verdicts.refreshCpu)}`,
  ),
  row(
    'password login',
    LOGIN_CONNECTIONS,
    'login',
    'loginVsHash',
    `CPU ≥ ${x(TARGETS.loginVsHash)}: ${ok(verdicts.loginVsHashByCpu)} (req/s: ${ok(verdicts.loginVsHash)})`,
  ),
  row('raw argon2id verify', LOGIN_CONNECTIONS, 'argon2', undefined, 'baseline for login'),
  row('password login, cheap hash (m=256 KiB, t=1)', LOGIN_CONNECTIONS, 'cheap', undefined, "a sign-in's own work"),
  ...(ingest
    ? [
        [
          'SQLite ingestion (events)',
          String(ingest.concurrency),
          `${n(ingest.httpEventsPerSecond)} ev/s`,
          '–',
          `${n(1e6 / ingest.httpEventsPerCpuSecond)} per event`,
          x(ingest.vsCeilingWall),
          x(ingest.vsCeilingCpu),
          `CPU ≥ ${x(TARGETS.ingestVsCeiling)}: ${ok(verdicts.ingestVsCeiling)}`,
        ],
        [
          'SQLite ceiling (1 transaction)',
          '–',
          `${n(ingest.ceilingEventsPerSecond)} ev/s`,
          '–',
          `${n(1e6 / ingest.ceilingEventsPerCpuSecond)} per event`,
          '–',
          '–',
          'baseline for ingestion',
        ],
      ]
    : []),
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((cells) => String(cells[i]).length)));
console.log('');
for (const [i, cells] of rows.entries()) {
  console.log(cells.map((cell, j) => String(cell).padEnd(widths[j])).join(' | '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
}
const loadAtEnd = loadAverage();
const ticksAtEnd = machineTicks();
const stealShare = (ticksAtEnd.steal - ticksAtStart.steal) / (ticksAtEnd.total - ticksAtStart.total);
const busy = loadAtStart > 1 || stealShare > 0.05;
const disagree = ratioNames.filter((k) => {
  const [a, b] = [summary.ratios[k].median, summary.cpuRatios[k].median];
  return Math.max(a, b) / Math.min(a, b) > 1.5;
});
const quartiles = (s) => `${x(s.q1)}–${x(s.q3)}`;
const atTarget = summary.profilePairsAtTarget;
console.log(
  `\nprofile read: ${PAIRS} pairs of ${SLICE} s; ratio quartiles ${quartiles(summary.ratios.profileVsBare)} ` +
    `(CPU ${quartiles(summary.cpuRatios.profileVsBare)}); pairs at or above ${x(TARGETS.profileVsBare)}: ` +
    `${atTarget.byRps} of ${atTarget.of} by req/s, ${atTarget.byCpu} of ${atTarget.of} by CPU.`,
);
const loginThreads = {
  main: spread(loginPairs, (r) => r.login.mainThreadUsPerRequest).median,
  other: spread(loginPairs, (r) => r.login.otherThreadsUsPerRequest).median,
  cheapMain: spread(rounds, (r) => r.cheap.mainThreadUsPerRequest).median,
};
const rawCheck = summary.argon2.cpuUsPerRequest.median;
console.log(
  `password login: ${PAIRS} pairs of ${LOGIN_SLICE} s; ratio quartiles ${quartiles(summary.ratios.loginVsHash)} ` +
    `(CPU ${quartiles(summary.cpuRatios.loginVsHash)}).`,
);
console.log(
  `password login: server CPU per sign-in ${n(summary.login.cpuUsPerRequest.median)} µs = main thread ` +
    `${n(loginThreads.main)} (the request around the hash) + other threads ${n(loginThreads.other)} (the hash, ` +
    `the log's writes); the raw check ${n(summary.argon2.cpuUsPerRequest.median)} µs. ${x(TARGETS.loginVsHash)} ` +
    `leaves ${n(rawCheck / TARGETS.loginVsHash - rawCheck)} µs for everything but the hash; the other threads ` +
    `alone come to ${x(loginThreads.other / rawCheck)} the raw check.`,
);
console.log(
  `a sign-in's own work: main thread ${n(loginThreads.cheapMain)} µs per sign-in with the cheap hash, against ` +
    `${n(loginThreads.main)} beside the real one on the same core; raw check ÷ (raw check + own work) = ` +
    `${x(rawCheck / (rawCheck + loginThreads.cheapMain))}.`,
);
console.log(
  'ratio: req/s within each pair (profile, login) or round (refresh), median of them. CPU ratio: from server ' +
    'CPU time per request, which other load on the machine disturbs far less.',
);
console.log(
  `logging: the server at LOG_LEVEL=${LOG_LEVEL}, its stdout to a file, written asynchronously (pino's ` +
    'destination with sync: false, flushed on close and exit). The baseline writes the same line per ' +
    'request through pino the same way (like for like); the bare handler without a log is shown beside it.',
);
if (busy || disagree.length > 0) {
  console.log(
    `warning: load average ${loadAtStart.toFixed(1)} before the bench on ${cpus().length} cores; the host ` +
      `gave ${(stealShare * 100).toFixed(0)}% of this machine's CPU time to other guests (steal)` +
      (disagree.length > 0 ? `; req/s and CPU ratios disagree for ${disagree.join(', ')}` : '') +
      '. Other work took CPU from the bench, so the req/s figures (and the verdicts drawn from them) ' +
      'are unreliable; trust the CPU ratios, or rerun on a quiet machine.',
  );
}

const resultsDir = join(root, 'bench/results');
mkdirSync(resultsDir, { recursive: true });
const report = {
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
};
writeFileSync(join(resultsDir, 'server.json'), `${JSON.stringify(report, null, 2)}\n`);
log(`done; results in bench/results/server.json (took ${Math.round((Date.now() - started) / 1000)} s)`);
log('Figures are from a shared 2-core machine: compare ratios, not absolute req/s.');
