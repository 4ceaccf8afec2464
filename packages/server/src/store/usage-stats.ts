/** The console's usage and monitoring queries. Percentiles are read by offset, which both SQLite and PostgreSQL index. */
import { sql } from 'kysely';
import type { UsageDb } from './usage.ts';

export interface Window {
  product: string;
  from: number;
  to: number;
}

export const eventCounts = (db: UsageDb, w: Window, bucketMs: number, key: string | undefined) => {
  const bucket = sql<number>`(${sql.ref('at')} / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
  return db
    .selectFrom('usage_events')
    .select(['event_key as key', bucket.as('bucket'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('product_code', '=', w.product)
    .where('at', '>=', w.from)
    .where('at', '<', w.to)
    .$if(key !== undefined, (q) => q.where('event_key', '=', key ?? ''))
    .groupBy(['event_key', bucket])
    .orderBy('bucket')
    .orderBy('event_key')
    .execute();
};

export const uniqueVisitors = (db: UsageDb, w: Window) =>
  db
    .selectFrom('usage_events')
    .select((eb) => [
      eb.fn.count<number>('device_uid').distinct().as('devices'),
      eb.fn.count<number>('user_id').distinct().as('users'),
      eb.fn.countAll<number>().as('events'),
    ])
    .where('product_code', '=', w.product)
    .where('at', '>=', w.from)
    .where('at', '<', w.to)
    .executeTakeFirstOrThrow();

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

const beacons = (db: UsageDb, w: Window, kind: string) =>
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
