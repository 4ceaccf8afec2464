/**
 * Prometheus metrics (prom-client), one registry per server: requests by route, status and
 * latency; code sends by provider and outcome; failed logins and locks; captcha challenges and
 * passes; the ingestion queue and its refusals; sweep duration; database pool use. Served on
 * METRICS_PORT, or on the main port behind METRICS_TOKEN (http/metrics-endpoint.ts).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
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
}

export const createMetrics = () => {
  const registry = new Registry();
  const registers = [registry];
  const sources: MetricsSources = {};
  collectDefaultMetrics({ register: registry, prefix: 'edupass_process_' });
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
