// The server bench's knobs (environment; README.md "Knobs"), its targets, and its log lines (each
// with the seconds since the bench started).
const env = process.env;

export const root = new URL('../../', import.meta.url).pathname;
export const here = new URL('./', import.meta.url).pathname;

export const DURATION = Number(env.BENCH_DURATION ?? 5);
export const RUNS = Number(env.BENCH_RUNS ?? 3);
export const PAIRS = Number(env.BENCH_PAIRS ?? 10);
export const SLICE = Number(env.BENCH_SLICE ?? 2);
export const LOGIN_SLICE = Number(env.BENCH_LOGIN_SLICE ?? 4);
export const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
export const LOGIN_CONNECTIONS = Number(env.BENCH_LOGIN_CONNECTIONS ?? 8);
export const SERVER_CORE = env.BENCH_SERVER_CORE ?? '0';
export const CLIENT_CORE = env.BENCH_CLIENT_CORE ?? '1';
export const REFRESH_SESSIONS = CONNECTIONS + 20; // a reserve in case a chain breaks
export const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
export const INGEST_EVENTS = Number(env.BENCH_INGEST_EVENTS ?? 50_000);
/** Another build of server-entry.ts to measure (say, server.mjs bundled from an earlier commit). */
export const SERVER_BUNDLE = env.BENCH_SERVER_BUNDLE;
/** A directory: the server runs with --cpu-prof and writes its profile there. */
export const CPU_PROF = env.BENCH_CPU_PROF;

export const TARGETS = {
  profileVsBare: 0.75,
  loginVsHash: 0.9,
  profileP99Ms: 50,
  refreshCpuUs: 250,
  ingestVsCeiling: 0.5,
};

export const started = Date.now();
export const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);
