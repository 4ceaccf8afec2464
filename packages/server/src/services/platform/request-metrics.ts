/**
 * The per-request series (count by route, method and status; latency by route and method), kept
 * in plain numbers and handed to prom-client only when scraped. prom-client's own `inc`/`observe`
 * validate and hash the label set on every call, which cost a profile read in bench/server about
 * as much as its whole session check.
 */
import { Counter, type Registry } from 'prom-client';

export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Latency {
  labels: { route: string; method: string };
  /** Answers at or under each bound of LATENCY_BUCKETS (not cumulative; the scrape sums them). */
  buckets: number[];
  count: number;
  sum: number;
}

/** One route, method and status: its pending count and its route's latency. */
export interface RequestSeries {
  pending: number;
  readonly latency: Latency;
}

const LATENCY_NAME = 'edupass_http_request_duration_seconds';

export const createRequestMetrics = (registry: Registry) => {
  const series = new Map<string, RequestSeries>();
  const latencies = new Map<string, Latency>();
  const flushed: Array<{ labels: { route: string; method: string; status: string }; series: RequestSeries }> = [];
  const requests = new Counter({
    name: 'edupass_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
    collect() {
      for (const { labels, series: one } of flushed) {
        if (one.pending === 0) continue;
        this.inc(labels, one.pending);
        one.pending = 0;
      }
    },
  });
  // A histogram in prom-client's export shape (what Registry#metrics formats, labels in the same
  // order as its own histograms write them), fed by `record`.
  registry.registerMetric({
    name: LATENCY_NAME,
    help: 'Time to answer an HTTP request, by route pattern and method.',
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({
      name: LATENCY_NAME,
      help: 'Time to answer an HTTP request, by route pattern and method.',
      type: 'histogram',
      aggregator: 'sum',
      values: [...latencies.values()].flatMap(({ labels, buckets, count, sum }) => {
        let below = 0;
        return [
          ...LATENCY_BUCKETS.map((le, i) => {
            below += buckets[i] ?? 0;
            return { labels: { le }, sharedLabels: labels, value: below, metricName: `${LATENCY_NAME}_bucket` };
          }),
          { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${LATENCY_NAME}_bucket` },
          { sharedLabels: labels, value: sum, metricName: `${LATENCY_NAME}_sum` },
          { sharedLabels: labels, value: count, metricName: `${LATENCY_NAME}_count` },
        ];
      }),
    }),
    reset: () => latencies.clear(),
  } as unknown as Parameters<Registry['registerMetric']>[0]);

  const latencyOf = (route: string, method: string) => {
    const key = `${method} ${route}`;
    let found = latencies.get(key);
    if (found === undefined) {
      found = { labels: { route, method }, buckets: LATENCY_BUCKETS.map(() => 0), count: 0, sum: 0 };
      latencies.set(key, found);
    }
    return found;
  };

  return {
    requests,
    /** The series of one route, method and status; look it up once and `record` into it. */
    seriesOf(route: string, method: string, status: number): RequestSeries {
      const key = `${method} ${status} ${route}`;
      let found = series.get(key);
      if (found === undefined) {
        found = { pending: 0, latency: latencyOf(route, method) };
        series.set(key, found);
        flushed.push({ labels: { route, method, status: String(status) }, series: found });
      }
      return found;
    },
    record(one: RequestSeries, seconds: number) {
      one.pending++;
      const latency = one.latency;
      latency.count++;
      latency.sum += seconds;
      const i = LATENCY_BUCKETS.findIndex((le) => seconds <= le);
      if (i >= 0) latency.buckets[i] = (latency.buckets[i] ?? 0) + 1;
    },
  };
};

export type RequestMetrics = ReturnType<typeof createRequestMetrics>;
