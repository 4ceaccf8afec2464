/**
 * Rollups of usage events, kept in step with `usage_events` in the transactions that write and sweep
 * it: events per (product, key, hour) and the devices and users seen per (product, UTC day).
 */
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import { CompiledQuery, sql } from 'kysely';
import type { UsageDb } from './events.ts';

export interface UsageEventHoursTable {
  product_code: string;
  event_key: string;
  /** Start of the hour of the events' `at`, unix ms. */
  hour: number;
  events: number;
}

export interface UsageDayVisitorsTable {
  product_code: string;
  kind: 'device' | 'user';
  /** The device uid or the user id. */
  visitor: string;
  /** Start of the UTC day of the events' `at`, unix ms. */
  day: number;
}

/** What the rollups need of an event actually inserted (the insert's RETURNING). */
export interface InsertedEvent {
  product_code: string;
  event_key: string;
  at: number | string;
  device_uid?: string | null;
  user_id?: string | null;
}

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;

/** A time column truncated to `unit` ms, in SQL (integer division on both databases). */
export const truncated = (column: string, unit: number) =>
  sql<number>`(${sql.ref(column)} / ${sql.lit(unit)}) * ${sql.lit(unit)}`;

/** Rows per statement: 4 columns × 500 stays far under either database's bound-parameter limit. */
const CHUNK = 500;

/** Compiled once per dialect, statement and row count, as `eventInsert` in usage.ts (building cost more than running). */
const compiled = new Map<string, string>();
const cachedSql = (db: UsageDb, name: string, rows: number, build: () => CompiledQuery): string => {
  const key = `${db.getExecutor().adapter.constructor.name}:${name}:${rows}`;
  let text = compiled.get(key);
  if (text === undefined) {
    text = build().sql;
    compiled.set(key, text);
  }
  return text;
};

export const hourUpsert = (tx: UsageDb, rows: UsageEventHoursTable[]) =>
  tx
    .insertInto('usage_event_hours')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['product_code', 'event_key', 'hour'])
        .doUpdateSet((eb) => ({ events: eb('usage_event_hours.events', '+', eb.ref('excluded.events')) })),
    );

export const visitorInsert = (tx: UsageDb, rows: UsageDayVisitorsTable[]) =>
  tx
    .insertInto('usage_day_visitors')
    .values(rows)
    .onConflict((oc) => oc.doNothing());

/** Counts one event in its (product, key, hour) tally; answers the hour. */
const countInHour = (
  hours: Map<string, UsageEventHoursTable>,
  row: Pick<InsertedEvent, 'product_code' | 'event_key' | 'at'>,
) => {
  const hour = floorTo(Number(row.at), HOUR_MS);
  const key = `${row.product_code}\u0000${row.event_key}\u0000${hour}`;
  const counted = hours.get(key);
  if (counted === undefined)
    hours.set(key, { product_code: row.product_code, event_key: row.event_key, hour, events: 1 });
  else counted.events++;
  return hour;
};

/** The rows newly inserted events add to the rollups: hourly counts to add, and visitor-days to insert. */
export interface RollupDeltas {
  hours: UsageEventHoursTable[];
  visitors: UsageDayVisitorsTable[];
}

/** The map under `key`, made empty the first time. */
const inner = <K, V extends Map<unknown, unknown>>(outer: Map<K, V>, key: K): V => {
  let map = outer.get(key);
  if (map === undefined) {
    map = new Map() as V;
    outer.set(key, map);
  }
  return map;
};

/**
 * Sums inserted events into rollup rows, one per (product, key, hour) and per (product, visitor, day),
 * so a batch costs one statement per row of each instead of one per event. It runs for every event
 * ingested: hours are counted in nested maps (no key string per event), and the events of one request,
 * which come together and share their device and user, look their visitor-day up once.
 */
export const rollupDeltas = (inserted: readonly InsertedEvent[]): RollupDeltas => {
  const counts = new Map<string, Map<string, Map<number, UsageEventHoursTable>>>();
  const hours: UsageEventHoursTable[] = [];
  const visitors = new Map<string, UsageDayVisitorsTable>();
  const see = (product_code: string, kind: 'device' | 'user', visitor: string, day: number) => {
    const key = `${product_code}\u0000${kind}\u0000${visitor}\u0000${day}`;
    if (!visitors.has(key)) visitors.set(key, { product_code, kind, visitor, day });
  };
  let last: { product: string; device: string | null; user: string | null; day: number } | undefined;
  for (const row of inserted) {
    const hour = floorTo(Number(row.at), HOUR_MS);
    const byHour = inner(inner(counts, row.product_code), row.event_key);
    const counted = byHour.get(hour);
    if (counted !== undefined) counted.events++;
    else {
      const first = { product_code: row.product_code, event_key: row.event_key, hour, events: 1 };
      byHour.set(hour, first);
      hours.push(first);
    }
    const day = floorTo(hour, DAY_MS);
    const device = row.device_uid ?? null;
    const user = row.user_id ?? null;
    if (last?.product === row.product_code && last.device === device && last.user === user && last.day === day)
      continue;
    last = { product: row.product_code, device, user, day };
    if (device !== null) see(row.product_code, 'device', device, day);
    if (user !== null) see(row.product_code, 'user', user, day);
  }
  return { hours, visitors: [...visitors.values()] };
};

/** Adds newly inserted events to the rollups (call in the transaction that inserted them). */
export const addToRollups = async (tx: UsageDb, inserted: readonly InsertedEvent[]): Promise<void> => {
  if (inserted.length === 0) return;
  const { hours: hourRows, visitors: visitorRows } = rollupDeltas(inserted);
  for (let i = 0; i < hourRows.length; i += CHUNK) {
    const chunk = hourRows.slice(i, i + CHUNK);
    const text = cachedSql(tx, 'hours', chunk.length, () => hourUpsert(tx, chunk).compile());
    await tx.executeQuery(
      CompiledQuery.raw(
        text,
        chunk.flatMap((row) => [row.product_code, row.event_key, row.hour, row.events]),
      ),
    );
  }
  for (let i = 0; i < visitorRows.length; i += CHUNK) {
    const chunk = visitorRows.slice(i, i + CHUNK);
    const text = cachedSql(tx, 'visitors', chunk.length, () => visitorInsert(tx, chunk).compile());
    await tx.executeQuery(
      CompiledQuery.raw(
        text,
        chunk.flatMap((row) => [row.product_code, row.kind, row.visitor, row.day]),
      ),
    );
  }
};

/** What the rollups need of an event actually deleted (the delete's RETURNING). */
export type DeletedEvent = Pick<InsertedEvent, 'product_code' | 'event_key' | 'at'>;

/**
 * Takes deleted events out of the hourly counts; call in the transaction that deleted them, with
 * the rows that delete returned. Counting what was deleted, not what a select saw before it, keeps
 * two sweeps that overlap from subtracting the same events twice. Answers the (product, day) pairs
 * whose visitor sets `rebuildVisitorDays` must then recompute.
 */
export const subtractFromRollups = async (tx: UsageDb, deleted: readonly DeletedEvent[]) => {
  const hours = new Map<string, UsageEventHoursTable>();
  const days = new Map<string, { product_code: string; day: number }>();
  for (const row of deleted) {
    const day = floorTo(countInHour(hours, row), DAY_MS);
    days.set(`${row.product_code}\u0000${day}`, { product_code: row.product_code, day });
  }
  for (const row of hours.values()) {
    await tx
      .updateTable('usage_event_hours')
      .set((eb) => ({ events: eb('events', '-', row.events) }))
      .where('product_code', '=', row.product_code)
      .where('event_key', '=', row.event_key)
      .where('hour', '=', row.hour)
      .execute();
  }
  for (const row of hours.values()) {
    await tx
      .deleteFrom('usage_event_hours')
      .where('product_code', '=', row.product_code)
      .where('event_key', '=', row.event_key)
      .where('hour', '=', row.hour)
      .where('events', '<=', 0)
      .execute();
  }
  return [...days.values()];
};

/** One visitor of one product on one day, as `usage_day_visitors` keys it. */
export interface VisitorDay {
  product_code: string;
  kind: 'device' | 'user';
  visitor: string;
  day: number;
}

/** The visitors (user and device) and days of deleted events. */
export const visitorDays = (deleted: readonly InsertedEvent[]): VisitorDay[] =>
  deleted.flatMap((row) => {
    const day = floorTo(Number(row.at), DAY_MS);
    const { product_code } = row;
    return [
      ...(row.user_id ? [{ product_code, kind: 'user' as const, visitor: row.user_id, day }] : []),
      ...(row.device_uid ? [{ product_code, kind: 'device' as const, visitor: row.device_uid, day }] : []),
    ];
  });

/**
 * Takes visitors out of the days they were seen, each by its key (the erasure of a user: the person
 * and the devices their events came from are no longer counted; a device shared with someone else
 * that day is counted once less).
 */
export const forgetVisitors = async (tx: UsageDb, visitors: readonly VisitorDay[]) => {
  for (let i = 0; i < visitors.length; i += VISITORS_PER_DELETE) {
    const keys = visitors.slice(i, i + VISITORS_PER_DELETE);
    await tx
      .deleteFrom('usage_day_visitors')
      .where(({ eb, refTuple, tuple }) =>
        eb(
          refTuple('product_code', 'kind', 'visitor', 'day'),
          'in',
          keys.map((v) => tuple(v.product_code, v.kind, v.visitor, v.day)),
        ),
      )
      .execute();
  }
};

/** Keys one statement of `forgetVisitors` names (4 parameters each, well under either database's limit). */
const VISITORS_PER_DELETE = 200;

/** Recomputes the visitor sets of (product, day) pairs from the events that remain. */
export const rebuildVisitorDays = async (tx: UsageDb, days: readonly { product_code: string; day: number }[]) => {
  for (const { product_code, day } of days) {
    await tx.deleteFrom('usage_day_visitors').where('product_code', '=', product_code).where('day', '=', day).execute();
    for (const [kind, column] of [
      ['device', 'device_uid'],
      ['user', 'user_id'],
    ] as const) {
      await tx
        .insertInto('usage_day_visitors')
        .columns(['product_code', 'kind', 'visitor', 'day'])
        .expression(
          tx
            .selectFrom('usage_events')
            .select((eb) => [
              'product_code',
              sql<string>`${sql.lit(kind)}`.as('kind'),
              eb.ref(column).$notNull().as('visitor'),
              sql<number>`${sql.lit(day)}`.as('day'),
            ])
            .distinct()
            .where('product_code', '=', product_code)
            .where('at', '>=', day)
            .where('at', '<', day + DAY_MS)
            .where(column, 'is not', null),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
};
