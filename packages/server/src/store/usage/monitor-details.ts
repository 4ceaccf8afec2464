/**
 * The monitoring dashboard's detail queries: error groups with last seen, API outcome codes per path,
 * and web-vitals p75 per time bucket. All read `monitor_beacons` through its (product, kind, received_at) index.
 */
import { sql } from 'kysely';
import type { UsageDb } from './events.ts';
import type { Window } from './events-store.ts';
import { beacons } from './stats.ts';

export const errorGroups = (db: UsageDb, w: Window, limit: number) =>
  beacons(db, w, 'error')
    .select((eb) => [
      'name as message',
      eb.fn.countAll<number>().as('count'),
      eb.fn.count<number>('page').distinct().as('pages'),
      eb.fn.max('received_at').as('last_seen'),
    ])
    .groupBy('name')
    .orderBy('count', 'desc')
    .limit(limit)
    .execute();

/** Failed calls only (no response: 601–604; or an HTTP status outside 200–399), per path and code. */
export const apiCodes = (db: UsageDb, w: Window, limit: number) =>
  beacons(db, w, 'api')
    .select((eb) => ['url as path', 'code', eb.fn.max('business').as('business'), eb.fn.countAll<number>().as('count')])
    .where((eb) => eb.or([eb('code', '<', 200), eb('code', '>=', 400)]))
    .groupBy(['url', 'code'])
    .orderBy('count', 'desc')
    .limit(limit)
    .execute();

interface VitalRow {
  name: string;
  bucket: number | string;
  count: number | string;
  value: number;
}

/**
 * p75 of each vital in each bucket in one pass: rank values within (name, bucket) and keep the row of
 * rank ⌈0.75·n⌉ = (3n + 3) div 4 — the nearest rank, as the overall percentiles. Integer arithmetic
 * only, so SQLite and PostgreSQL agree.
 */
export const vitalsSeries = async (db: UsageDb, w: Window, bucketMs: number): Promise<VitalRow[]> => {
  const bucket = sql`(received_at / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
  const result = await sql<VitalRow>`
    select name, bucket, n as count, value from (
      select name, ${bucket} as bucket, value,
        row_number() over (partition by name, ${bucket} order by value) as rn,
        count(*) over (partition by name, ${bucket}) as n
      from monitor_beacons
      where product_code = ${w.product} and kind = 'perf' and received_at >= ${w.from} and received_at < ${w.to}
        and name is not null and value is not null
    ) ranked
    where rn = (3 * n + 3) / 4
    order by bucket, name`.execute(db);
  return result.rows;
};
