/**
 * Prometheus metrics (prom-client), one registry per server: requests by route, status and latency;
 * code sends by provider and outcome; failed logins and locks; captcha challenges and passes; the
 * ingestion queue and its refusals; password hashes running and waiting; sweep duration and the rows
 * each sweep removed; database pool use; whether Redis answers; and Node's default process metrics
 * under their usual names (`process_*`, `nodejs_*`, as stock Node.js dashboards expect), without the
 * three gauges prom-client names `…_total` (a name Prometheus keeps for counters: sum the
 * `nodejs_active_*` gauges by type instead). Served on METRICS_PORT, or on the main port behind METRICS_TOKEN
 * (http/metrics-endpoint.ts).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { passwordHashes } from '../passwords/argon2.ts';
import { createRequestMetrics } from './request-metrics.ts';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface MetricsSources {
  /** Rows waiting in the ingestion writer. */
  ingestionPending?: () => number;
  /** PostgreSQL pool use; undefined on SQLite. */
  pool?: () => PoolStats | undefined;
  /** 1 while Redis answers, 0 while not; unset without REDIS_URL. */
  redisUp?: () => Promise<number>;
}

/** prom-client's default gauges whose names end in `_total`, which Prometheus keeps for counters. */
const GAUGES_NAMED_TOTAL = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export const createMetrics = () => {
  const registry = new Registry();
  const registers = [registry];
  const sources: MetricsSources = {};
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name);
  return {
    registry,
    sources,
    /** Requests by route, method and status, and their latency (services/platform/request-metrics.ts). */
    http: createRequestMetrics(registry),
    codeSends: new Counter({
      name: 'edupass_code_sends_total',
      help: 'One-time codes sent, by provider (aliyun, tencent, smtp, outbox), channel and outcome (sent, failed).',
      labelNames: ['provider', 'channel', 'outcome'],
      registers,
    }),
    loginFailures: new Counter({
      name: 'edupass_login_failures_total',
      help: 'Sign-ins refused for a wrong password or code.',
      registers,
    }),
    loginLocks: new Counter({
      name: 'edupass_login_locks_total',
      help: 'Sign-ins refused because the account is locked after too many failures (E_5).',
      registers,
    }),
    captchaChallenges: new Counter({
      name: 'edupass_captcha_challenges_total',
      help: 'Captcha challenges drawn.',
      labelNames: ['provider'],
      registers,
    }),
    captchaPasses: new Counter({
      name: 'edupass_captcha_passes_total',
      help: 'Captcha challenges passed (a ticket issued), by provider.',
      labelNames: ['provider'],
      registers,
    }),
    ingestionRefused: new Counter({
      name: 'edupass_ingestion_refused_total',
      help: 'Usage reports turned away because the ingestion writer was saturated.',
      registers,
    }),
    ingestionPending: new Gauge({
      name: 'edupass_ingestion_pending_rows',
      help: 'Rows waiting in the ingestion writer for their transaction.',
      registers,
      collect() {
        this.set(sources.ingestionPending?.() ?? 0);
      },
    }),
    sweepDuration: new Histogram({
      name: 'edupass_sweep_duration_seconds',
      help: 'Duration of the hourly housekeeping sweep (only the process holding the sweep lock sweeps).',
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers,
    }),
    sweepRows: new Counter({
      name: 'edupass_sweep_rows_total',
      help: 'Rows the hourly housekeeping sweep removed (or, for data-export zips, emptied), by what they were (the names its log lines give).',
      labelNames: ['rows'],
      registers,
    }),
    passwordHashes: new Gauge({
      name: 'edupass_password_hashes',
      help: 'Password hashes (argon2id) in this process, by state: running (one per core at most) and waiting for a core.',
      labelNames: ['state'],
      registers,
      collect() {
        for (const [state, value] of Object.entries(passwordHashes())) this.set({ state }, value);
      },
    }),
    redisUp: new Gauge({
      name: 'edupass_redis_up',
      help: 'Whether Redis answers this process (1) or not (0); absent without REDIS_URL. Requests are served either way.',
      registers,
      async collect() {
        const up = await sources.redisUp?.();
        if (up !== undefined) this.set(up);
      },
    }),
    pool: new Gauge({
      name: 'edupass_db_pool_connections',
      help: 'PostgreSQL pool connections, by state (total, idle, waiting requests, max).',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = sources.pool?.();
        if (stats === undefined) return;
        for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
      },
    }),
  };
};

export type Metrics = ReturnType<typeof createMetrics>;
