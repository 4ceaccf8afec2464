/** The console's usage and monitoring figures (admin only). */
import { MONITOR, VITALS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import type { Window } from '../../store/usage/events-store.ts';
import { BUCKETS, type BucketName } from './window.ts';

export const usageCounts = async (ctx: Context, w: Window, bucket: BucketName, key?: string) => {
  return ctx.events.eventCounts(w, BUCKETS[bucket], key);
};

export const uniques = async (ctx: Context, w: Window) => {
  return ctx.events.uniques(w);
};

export const durations = async (ctx: Context, w: Window, key: string) => {
  const { count, values } = await ctx.events.durationPercentiles(w, key, [0.5, 0.75, 0.9, 0.99]);
  const [p50 = null, p75 = null, p90 = null, p99 = null] = values;
  return { key, count, p50, p75, p90, p99 };
};

export const monitorErrors = async (ctx: Context, w: Window) => {
  const rows = await ctx.events.errorCounts(w, 100);
  return rows.map((row) => ({ message: row.message ?? '', count: row.count }));
};

/** Successes arrive sampled (1 in 10), so calls are estimated as failures + successes × 10. */
export const apiFailureRates = async (ctx: Context, w: Window) => {
  const rows = await ctx.events.apiOutcomes(w, 200);
  return rows.map((row) => {
    const failures = row.failures;
    const calls = failures + row.successes / MONITOR.successSampleRate;
    return {
      path: row.path ?? '',
      failures,
      business_errors: row.business,
      estimated_calls: Math.round(calls),
      failure_rate: calls === 0 ? 0 : failures / calls,
    };
  });
};

export const vitalsP75 = (ctx: Context, w: Window) =>
  Promise.all(
    VITALS.map(async (name) => {
      const { count, value } = await ctx.events.vitalPercentile(w, name, 0.75);
      return { name, count, p75: value };
    }),
  );
