/** The monitoring dashboard's details (operators only; the route checks the role). */
import type { ApiCodeCount, ErrorGroup, VitalPoint } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { apiCodes, errorGroups, vitalsSeries } from '../store/monitor-details.ts';
import { usageDb } from '../store/usage.ts';
import type { Window } from '../store/usage-stats.ts';
import { BUCKETS, type BucketName } from './usage-window.ts';

export const listErrorGroups = async (ctx: Context, w: Window): Promise<ErrorGroup[]> =>
  (await errorGroups(usageDb(ctx.readDb), w, 100)).map((row) => ({
    message: row.message ?? '',
    count: Number(row.count),
    pages: Number(row.pages),
    last_seen: Number(row.last_seen),
  }));

export const listApiCodes = async (ctx: Context, w: Window): Promise<ApiCodeCount[]> =>
  (await apiCodes(usageDb(ctx.readDb), w, 500)).map((row) => ({
    path: row.path ?? '',
    code: Number(row.code),
    business: Number(row.business) === 1,
    count: Number(row.count),
  }));

export const vitalsOverTime = async (ctx: Context, w: Window, bucket: BucketName): Promise<VitalPoint[]> => {
  const rows = await vitalsSeries(usageDb(ctx.readDb), w, BUCKETS[bucket]);
  return rows.map((row) => ({ name: row.name, bucket: Number(row.bucket), count: Number(row.count), p75: row.value }));
};
