/**
 * What the console's usage and monitor queries are over: a product's time window and the bucket
 * figures are grouped by. One reading for every such route (routes/admin-usage.ts, admin-monitor.ts).
 */
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import type { Window } from '../../store/usage/events-store.ts';

/** The buckets figures are grouped by, in ms. */
export const BUCKETS = { hour: HOUR_MS, day: DAY_MS } as const;
export type BucketName = keyof typeof BUCKETS;

/** The window of a query: the 7 days up to `to` (default now), at most 366 days. */
export const queryWindow = (ctx: Context, q: { product: string; from?: number; to?: number }): Window => {
  const to = q.to ?? ctx.now();
  const from = q.from ?? to - 7 * DAY_MS;
  if (from < 0 || from >= to || to - from > 366 * DAY_MS) {
    throw invalidRequest('from must be before to, at most 366 days apart.');
  }
  return { product: q.product, from, to };
};

/** A `bucket` field: hour or day (the default). */
export const queryBucket = (bucket = 'day'): BucketName => {
  if (bucket !== 'hour' && bucket !== 'day') throw invalidRequest('bucket must be hour or day.');
  return bucket;
};
