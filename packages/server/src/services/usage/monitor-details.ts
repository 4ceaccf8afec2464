/** The monitoring dashboard's details (operators only; the route checks the role). */
import type { ApiCodeCount, ErrorGroup, VitalPoint } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import type { Window } from '../../store/usage/events-store.ts';
import { BUCKETS, type BucketName } from './window.ts';

export const listErrorGroups = async (ctx: Context, w: Window): Promise<ErrorGroup[]> =>
  (await ctx.events.errorGroups(w, 100)).map((row) => ({ ...row, message: row.message ?? '' }));

export const listApiCodes = async (ctx: Context, w: Window): Promise<ApiCodeCount[]> =>
  (await ctx.events.apiCodes(w, 500)).map((row) => ({
    path: row.path ?? '',
    code: row.code,
    business: row.business === 1,
    count: row.count,
  }));

export const vitalsOverTime = async (ctx: Context, w: Window, bucket: BucketName): Promise<VitalPoint[]> => {
  const rows = await ctx.events.vitalsSeries(w, BUCKETS[bucket]);
  return rows.map((row) => ({ name: row.name, bucket: row.bucket, count: row.count, p75: row.value }));
};
