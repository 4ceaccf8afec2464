/** The console's usage and monitoring queries. Percentiles are read by offset, which both SQLite and PostgreSQL index. */
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import { sql } from 'kysely';
import type { UsageDb } from './usage.ts';
import { truncated } from './usage-rollups.ts';
import { splitWindow } from './usage-window.ts';

export interface Window {
  product: string;
  from: number;
  to: number;
}

/**
 * Events per key per bucket (an hour or a day, both whole hours): whole hours from the hourly rollup,
 * the window's partial first and last hours from the events themselves — the same answer as counting
 * the events, without reading a month of them.
 */
export const eventCounts = (db: UsageDb, w: Window, bucketMs: number, key: string | undefined) => {
  const { whole, edges } = splitWindow(w.from, w.to, HOUR_MS);
  const raw = edges.map(([from, to]) =>
    db
      .selectFrom('usage_events')
      .select(['event_key as key', truncated('at', bucketMs).as('bucket'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('product_code', '=', w.product)
      .where('at', '>=', from)
      .where('at', '<', to)
      .$if(key !== undefined, (q) => q.where('event_key', '=', key ?? ''))
      .groupBy(['event_key', truncated('at', bucketMs)]),
  );
  const parts = [
    ...(whole === undefined
      ? []
      : [
          db
            .selectFrom('usage_event_hours')
            .select(['event_key as key', truncated('hour', bucketMs).as('bucket'), 'events as n'])
            .where('product_code', '=', w.product)
            .where('hour', '>=', whole[0])
            .where('hour', '<', whole[1])
            .$if(key !== undefined, (q) => q.where('event_key', '=', key ?? '')),
        ]),
    ...raw,
  ];
  const [head, ...rest] = parts;
  if (head === undefined) return Promise.resolve([]);
  const union = rest.reduce((all, part) => all.unionAll(part), head);
  return db
    .selectFrom(union.as('parts'))
    .select(['key', 'bucket', (eb) => eb.fn.sum<number>('n').as('count')])
    .groupBy(['key', 'bucket'])
    .orderBy('bucket')
    .orderBy('key')
    .execute();
};

/** Events in the window: whole hours from the hourly rollup, partial hours from the events. */
const eventTotal = async (db: UsageDb, w: Window): Promise<number> => {
  const { whole, edges } = splitWindow(w.from, w.to, HOUR_MS);
  let total = 0;
  if (whole !== undefined) {
    const row = await db
      .selectFrom('usage_event_hours')
      .select((eb) => eb.fn.sum<number>('events').as('n'))
      .where('product_code', '=', w.product)
      .where('hour', '>=', whole[0])
      .where('hour', '<', whole[1])
      .executeTakeFirst();
    total += Number(row?.n ?? 0);
  }
  for (const [from, to] of edges) {
    const row = await db
      .selectFrom('usage_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('product_code', '=', w.product)
      .where('at', '>=', from)
      .where('at', '<', to)
      .executeTakeFirstOrThrow();
    total += Number(row.n);
  }
  return total;
};

/** Distinct devices or users in the window: whole days from the daily visitor sets, partial days raw. */
const distinctVisitors = async (db: UsageDb, w: Window, kind: 'device' | 'user'): Promise<number> => {
  const column = kind === 'device' ? 'device_uid' : 'user_id';
  const { whole, edges } = splitWindow(w.from, w.to, DAY_MS);
  const parts = [
    ...(whole === undefined
      ? []
      : [
          db
            .selectFrom('usage_day_visitors')
            .select('visitor')
            .where('product_code', '=', w.product)
            .where('kind', '=', kind)
            .where('day', '>=', whole[0])
            .where('day', '<', whole[1]),
        ]),
    ...edges.map(([from, to]) =>
      db
        .selectFrom('usage_events')
        .select((eb) => eb.ref(column).$notNull().as('visitor'))
        .where('product_code', '=', w.product)
        .where('at', '>=', from)
        .where('at', '<', to)
        .where(column, 'is not', null),
    ),
  ];
  const [head, ...rest] = parts;
  if (head === undefined) return 0;
  const union = rest.reduce((all, part) => all.unionAll(part), head);
  const row = await db
    .selectFrom(union.as('visitors'))
    .select((eb) => eb.fn.count<number>('visitor').distinct().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/**
 * Distinct devices and users, and events, in the window. Exact: whole UTC days come from the daily
 * visitor sets written at ingestion, the partial days at either edge from the events themselves.
 */
export const uniqueVisitors = async (db: UsageDb, w: Window) => {
  const devices = await distinctVisitors(db, w, 'device');
  const users = await distinctVisitors(db, w, 'user');
  const events = await eventTotal(db, w);
  return { devices, users, events };
};

/** Values at the given fractions of a sorted column, with the count. */
const percentiles = async (
  count: number,
  nth: (offset: number) => Promise<number | null | undefined>,
  fractions: number[],
): Promise<(number | null)[]> =>
  Promise.all(fractions.map(async (f) => (count === 0 ? null : ((await nth(Math.floor(f * (count - 1)))) ?? null))));

export const durationPercentiles = async (db: UsageDb, w: Window, key: string, fractions: number[]) => {
  const base = db
    .selectFrom('usage_events')
    .where('product_code', '=', w.product)
    .where('event_key', '=', key)
    .where('at', '>=', w.from)
    .where('at', '<', w.to)
    .where('dur', 'is not', null);
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const n = Number(count);
  const values = await percentiles(
    n,
    async (offset) => (await base.select('dur').orderBy('dur').limit(1).offset(offset).executeTakeFirst())?.dur,
    fractions,
  );
  return { count: n, values };
};

/** The monitor beacons of one kind in a window, through the (product, kind, received_at) index. */
export const beacons = (db: UsageDb, w: Window, kind: string) =>
  db
    .selectFrom('monitor_beacons')
    .where('product_code', '=', w.product)
    .where('kind', '=', kind)
    .where('received_at', '>=', w.from)
    .where('received_at', '<', w.to);

export const errorCounts = (db: UsageDb, w: Window, limit: number) =>
  beacons(db, w, 'error')
    .select(['name as message', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('name')
    .orderBy('count', 'desc')
    .limit(limit)
    .execute();

export const apiOutcomes = (db: UsageDb, w: Window, limit: number) =>
  beacons(db, w, 'api')
    .select((eb) => [
      'url as path',
      sql<number>`sum(case when ${eb.ref('code')} < 200 or ${eb.ref('code')} >= 400 then 1 else 0 end)`.as('failures'),
      sql<number>`sum(case when ${eb.ref('code')} >= 200 and ${eb.ref('code')} < 400 then 1 else 0 end)`.as(
        'successes',
      ),
      sql<number>`sum(case when ${eb.ref('business')} = 1 then 1 else 0 end)`.as('business'),
    ])
    .groupBy('url')
    .orderBy('failures', 'desc')
    .limit(limit)
    .execute();

export const vitalPercentile = async (db: UsageDb, w: Window, name: string, fraction: number) => {
  const base = beacons(db, w, 'perf').where('name', '=', name);
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const n = Number(count);
  const [value] = await percentiles(
    n,
    async (offset) => (await base.select('value').orderBy('value').limit(1).offset(offset).executeTakeFirst())?.value,
    [fraction],
  );
  return { count: n, value: value ?? null };
};
