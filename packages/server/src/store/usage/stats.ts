/** The console's usage and monitoring queries on SQLite and PostgreSQL (the SQL events store). */
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import { type SelectQueryBuilder, sql } from 'kysely';
import { dialectOf } from '../db.ts';
import type { Database } from '../schema.ts';
import type { UsageDb, UsageTables } from './events.ts';
import type { Window } from './events-store.ts';
import { truncated } from './rollups.ts';
import { splitWindow } from './window.ts';

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
  // SELECT DISTINCT in a subquery, counted: PostgreSQL hashes it, where count(DISTINCT) sorts every row.
  const distinct = db.selectFrom(union.as('visitors')).select('visitor').distinct();
  const row = await db
    .selectFrom(distinct.as('distinct_visitors'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
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

/** The 1-based rank of the nearest-rank percentile (PostgreSQL's `percentile_disc`): ⌈f·n⌉, at least 1. */
export const nearestRank = (fraction: number, count: number) => Math.max(1, Math.ceil(fraction * count));

const checkedFractions = (fractions: number[]) => {
  if (!fractions.every((f) => Number.isFinite(f) && f >= 0 && f <= 1)) throw new Error('fractions must be in [0, 1]');
  return fractions;
};

type Filtered = SelectQueryBuilder<Database & UsageTables, 'usage_events' | 'monitor_beacons', object>;

/**
 * The values of `column` at each fraction in one query: PostgreSQL's `percentile_disc` over an array
 * of fractions; on SQLite one ordered pass ranking the rows (window functions) that keeps only the
 * rows at the wanted ranks. Both compute ⌈f·n⌉ in double precision, so they agree.
 */
const percentilesOf = async (
  db: UsageDb,
  base: Filtered,
  column: 'dur' | 'value',
  fractions: number[],
): Promise<{ count: number; values: (number | null)[] }> => {
  const wanted = checkedFractions(fractions);
  const ref = sql.ref(column);
  if (dialectOf(db) === 'postgres') {
    const list = sql.join(wanted.map((f) => sql.lit(f)));
    const row = await base
      .select([
        sql<string>`count(*)`.as('n'),
        sql<
          (string | number | null)[] | null
        >`percentile_disc(array[${list}]::float8[]) within group (order by ${ref})`.as('v'),
      ])
      .executeTakeFirstOrThrow();
    const n = Number(row.n);
    return { count: n, values: wanted.map((_, i) => (n === 0 || row.v?.[i] == null ? null : Number(row.v[i]))) };
  }
  const ranked = base.select([
    sql<number>`${ref}`.as('v'),
    sql<number>`row_number() over (order by ${ref})`.as('rn'),
    sql<number>`count(*) over ()`.as('n'),
  ]);
  const atRanks = sql.join(
    wanted.map((f) => sql`(rn >= max(${sql.lit(f)} * n, 1) and rn < max(${sql.lit(f)} * n, 1) + 1)`),
    sql` or `,
  );
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .select(['v', 'rn', 'n'])
    .where(sql<boolean>`rn = 1 or ${atRanks}`)
    .execute();
  const n = Number(rows[0]?.n ?? 0);
  const byRank = new Map(rows.map((row) => [Number(row.rn), Number(row.v)]));
  return { count: n, values: wanted.map((f) => (n === 0 ? null : (byRank.get(nearestRank(f, n)) ?? null))) };
};

export const durationPercentiles = (db: UsageDb, w: Window, key: string, fractions: number[]) =>
  percentilesOf(
    db,
    db
      .selectFrom('usage_events')
      .where('product_code', '=', w.product)
      .where('event_key', '=', key)
      .where('at', '>=', w.from)
      .where('at', '<', w.to)
      .where('dur', 'is not', null) as unknown as Filtered,
    'dur',
    fractions,
  );

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
  const base = beacons(db, w, 'perf').where('name', '=', name).where('value', 'is not', null);
  const { count, values } = await percentilesOf(db, base as unknown as Filtered, 'value', [fraction]);
  return { count, value: values[0] ?? null };
};
