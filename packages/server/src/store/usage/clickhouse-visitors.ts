/**
 * Unique devices and users of a window on ClickHouse: the whole days settled for their visitors
 * (store/usage/clickhouse-settled.ts) from the visitor masks — one row per visitor and 64-day span —
 * and every other part of the window (days not settled or changed since, partial days at the edges)
 * from the events themselves.
 */

import type { ClickHouseClient } from '@clickhouse/client';
import { DAY_MS } from '@edupass/protocol';
import { int, str } from './clickhouse-schema.ts';
import { maskedVisitorsSql, rawVisitorsSql, settledDays } from './clickhouse-settled.ts';
import type { Window } from './events-store.ts';
import { splitWindow } from './window.ts';

/** Consecutive days as [from, to) time ranges. */
const dayRanges = (days: readonly number[]): [number, number][] => {
  const ranges: [number, number][] = [];
  for (const day of days) {
    const last = ranges.at(-1);
    if (last && last[1] === day * DAY_MS) last[1] = (day + 1) * DAY_MS;
    else ranges.push([day * DAY_MS, (day + 1) * DAY_MS]);
  }
  return ranges;
};

/** The query answering `devices` and `users` for the window. */
export const visitorsSql = async (client: ClickHouseClient, w: Window): Promise<string> => {
  const { whole, edges } = splitWindow(w.from, w.to, DAY_MS);
  const settled = whole ? await settledDays(client, w.product, whole[0] / DAY_MS, whole[1] / DAY_MS) : [];
  const isSettled = new Set(settled);
  const unsettled: number[] = [];
  if (whole)
    for (let day = whole[0] / DAY_MS; day < whole[1] / DAY_MS; day++) if (!isSettled.has(day)) unsettled.push(day);
  const raw = [...dayRanges(unsettled), ...edges];
  const parts: string[] = [];
  if (settled.length > 0) parts.push(maskedVisitorsSql(w.product, settled));
  if (raw.length > 0) {
    const within = raw.map(([from, to]) => `(at >= ${int(from)} AND at < ${int(to)})`).join(' OR ');
    parts.push(rawVisitorsSql(`product_code = ${str(w.product)} AND (${within})`));
  }
  if (parts.length === 0) return 'SELECT toUInt64(0) AS devices, toUInt64(0) AS users';
  // A visitor counts once however many rows (spans, unmerged parts, raw events) name it.
  return `SELECT uniqExactIf(visitor, kind = 0) AS devices, uniqExactIf(visitor, kind = 1) AS users
    FROM (${parts.join(' UNION ALL ')})`;
};
