/** The monitoring dashboard's details (operators only; the route checks the role). */
import type { ApiCodeCount, ErrorGroup, VitalPoint } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import type { Window } from '../store/events-store.ts';

const DAY_MS = 86_400_000;
const BUCKET_MS = { hour: 3_600_000, day: DAY_MS } as const;

/** The window of a query: the 7 days up to `to` (default now), at most 366 days. */
export const queryWindow = (ctx: Context, q: { product: string; from?: number; to?: number }): Window => {
  const to = q.to ?? ctx.now();
  const from = q.from ?? to - 7 * DAY_MS;
  if (from < 0 || from >= to || to - from > 366 * DAY_MS) {
    throw invalidRequest('from must be before to, at most 366 days apart.');
  }
  return { product: q.product, from, to };
};

export const listErrorGroups = async (ctx: Context, w: Window): Promise<ErrorGroup[]> =>
  (await ctx.events.errorGroups(w, 100)).map((row) => ({ ...row, message: row.message ?? '' }));

export const listApiCodes = async (ctx: Context, w: Window): Promise<ApiCodeCount[]> =>
  (await ctx.events.apiCodes(w, 500)).map((row) => ({
    path: row.path ?? '',
    code: row.code,
    business: row.business === 1,
    count: row.count,
  }));

export const vitalsOverTime = async (ctx: Context, w: Window, bucket = 'day'): Promise<VitalPoint[]> => {
  if (bucket !== 'hour' && bucket !== 'day') throw invalidRequest('bucket must be hour or day.');
  const rows = await ctx.events.vitalsSeries(w, BUCKET_MS[bucket]);
  return rows.map((row) => ({ name: row.name, bucket: row.bucket, count: row.count, p75: row.value }));
};
