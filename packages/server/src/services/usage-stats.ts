/** The console's usage and monitoring figures (admin only). */
import { MONITOR, VITALS } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { usageDb } from '../store/usage.ts';
import {
  apiOutcomes,
  durationPercentiles,
  errorCounts,
  eventCounts,
  uniqueVisitors,
  vitalPercentile,
  type Window,
} from '../store/usage-stats.ts';
import { BUCKETS, type BucketName } from './usage-window.ts';

export const usageCounts = async (ctx: Context, w: Window, bucket: BucketName, key?: string) => {
  const rows = await eventCounts(usageDb(ctx.readDb), w, BUCKETS[bucket], key);
  return rows.map((row) => ({ key: row.key, bucket: Number(row.bucket), count: Number(row.count) }));
};

export const uniques = async (ctx: Context, w: Window) => {
  const row = await uniqueVisitors(usageDb(ctx.readDb), w);
  return { devices: Number(row.devices), users: Number(row.users), events: Number(row.events) };
};

export const durations = async (ctx: Context, w: Window, key: string) => {
  const { count, values } = await durationPercentiles(usageDb(ctx.readDb), w, key, [0.5, 0.75, 0.9, 0.99]);
  const [p50 = null, p75 = null, p90 = null, p99 = null] = values;
  return { key, count, p50, p75, p90, p99 };
};

export const monitorErrors = async (ctx: Context, w: Window) => {
  const rows = await errorCounts(usageDb(ctx.readDb), w, 100);
  return rows.map((row) => ({ message: row.message ?? '', count: Number(row.count) }));
};

/** Successes arrive sampled (1 in 10), so calls are estimated as failures + successes × 10. */
export const apiFailureRates = async (ctx: Context, w: Window) => {
  const rows = await apiOutcomes(usageDb(ctx.readDb), w, 200);
  return rows.map((row) => {
    const failures = Number(row.failures);
    const calls = failures + Number(row.successes) / MONITOR.successSampleRate;
    return {
      path: row.path ?? '',
      failures,
      business_errors: Number(row.business),
      estimated_calls: Math.round(calls),
      failure_rate: calls === 0 ? 0 : failures / calls,
    };
  });
};

export const vitalsP75 = (ctx: Context, w: Window) =>
  Promise.all(
    VITALS.map(async (name) => {
      const { count, value } = await vitalPercentile(usageDb(ctx.readDb), w, name, 0.75);
      return { name, count, p75: value };
    }),
  );
