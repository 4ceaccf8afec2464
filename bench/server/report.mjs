// What the bench makes of its measurements: medians and quartiles (a ratio taken within its pair or
// round, then summarised), the verdicts against the targets, the printed table and notes, and the
// JSON written to bench/results/server.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { n, x } from './format.mjs';
import { CONNECTIONS, LOG_LEVEL, LOGIN_CONNECTIONS, LOGIN_SLICE, PAIRS, root, SLICE, TARGETS } from './settings.mjs';

/** The q-quantile of `values`, interpolated between neighbours (q = 0.5: the median). */
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  return sorted[below] + (sorted[Math.ceil(at)] - sorted[below]) * (at - below);
};

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

/** Medians and spreads of every measurement and ratio, and the verdict on each target. */
export const summarise = ({ pairs, loginPairs, rounds, ingest }) => {
  const fromPairs = ratiosOf(pairs, ['profileVsBare', 'profileVsQuiet']);
  const fromRounds = ratiosOf(rounds, ['refreshVsBare']);
  const fromLoginPairs = ratiosOf(loginPairs, ['loginVsHash']);
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
  return { summary, verdicts };
};

const ok = (pass) => (pass ? 'met' : 'MISSED');

/** The ingestion's two rows of the table, beside its ceiling. */
const ingestRows = (ingest, verdicts) => [
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
];

/** The table of every measurement, its ratio to its baseline and its verdict. */
export const printTable = (summary, verdicts, ingest) => {
  const range = (s, f = n) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
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
    [
      'measurement',
      'conn.',
      'req/s median (min–max)',
      'p99 ms',
      'CPU µs/req',
      'ratio (min–max)',
      'CPU ratio',
      'target',
    ],
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
    ...(ingest ? ingestRows(ingest, verdicts) : []),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((cells) => String(cells[i]).length)));
  console.log('');
  for (const [i, cells] of rows.entries()) {
    console.log(cells.map((cell, j) => String(cell).padEnd(widths[j])).join(' | '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  }
};

/** The ratios whose req/s and CPU medians disagree by more than 1.5×. */
export const disagreeing = (summary) =>
  ['profileVsBare', 'refreshVsBare', 'loginVsHash'].filter((k) => {
    const [a, b] = [summary.ratios[k].median, summary.cpuRatios[k].median];
    return Math.max(a, b) / Math.min(a, b) > 1.5;
  });

/** A sign-in's CPU split: its main thread and its other threads beside the real hash, its main thread with the cheap one. */
export const loginThreadsOf = (loginPairs, rounds) => ({
  main: spread(loginPairs, (r) => r.login.mainThreadUsPerRequest).median,
  other: spread(loginPairs, (r) => r.login.otherThreadsUsPerRequest).median,
  cheapMain: spread(rounds, (r) => r.cheap.mainThreadUsPerRequest).median,
});

/** The notes under the table: the pairs' quartiles, where a sign-in's CPU goes, how to read the ratios. */
export const printNotes = (summary, loginThreads) => {
  const quartiles = (s) => `${x(s.q1)}–${x(s.q3)}`;
  const atTarget = summary.profilePairsAtTarget;
  console.log(
    `\nprofile read: ${PAIRS} pairs of ${SLICE} s; ratio quartiles ${quartiles(summary.ratios.profileVsBare)} ` +
      `(CPU ${quartiles(summary.cpuRatios.profileVsBare)}); pairs at or above ${x(TARGETS.profileVsBare)}: ` +
      `${atTarget.byRps} of ${atTarget.of} by req/s, ${atTarget.byCpu} of ${atTarget.of} by CPU.`,
  );
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
};

/** Says so when other work took CPU from the bench (load before it, steal during it) or the two ratios disagree. */
export const printWarning = ({ loadAtStart, stealShare, busy, disagree }) => {
  if (!busy && disagree.length === 0) return;
  console.log(
    `warning: load average ${loadAtStart.toFixed(1)} before the bench on ${cpus().length} cores; the host ` +
      `gave ${(stealShare * 100).toFixed(0)}% of this machine's CPU time to other guests (steal)` +
      (disagree.length > 0 ? `; req/s and CPU ratios disagree for ${disagree.join(', ')}` : '') +
      '. Other work took CPU from the bench, so the req/s figures (and the verdicts drawn from them) ' +
      'are unreliable; trust the CPU ratios, or rerun on a quiet machine.',
  );
};

/** Writes the whole run to bench/results/server.json. */
export const writeReport = (report) => {
  const resultsDir = join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'server.json'), `${JSON.stringify(report, null, 2)}\n`);
};
