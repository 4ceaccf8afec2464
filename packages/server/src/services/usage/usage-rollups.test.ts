/**
 * The usage rollups (hourly counts, daily visitor sets) against the events they summarise: every answer
 * the console reads from them must equal the same question asked of `usage_events` directly.
 */
import { randomUUID } from 'node:crypto';
import { useTestServer } from '@edupass/test-kit/harness';
import { hourRollupRows, usageEventRow, visitorRollupRows } from '@edupass/test-kit/usage-rows';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore, sqliteConnection } from '../../store/db.ts';
import { deleteUsageBefore, type NewUsageEvent, usageDb, writeUsage } from '../../store/usage/events.ts';
import { uniques, usageCounts } from './dashboards.ts';
import { BUCKETS } from './window.ts';

const { server } = useTestServer();

const HOUR = 3_600_000;
const DAY = 86_400_000;
const db = () => usageDb(server.app.ctx.db);
const ctx = () => server.app.ctx;

/** Deterministic pseudo-random numbers, so a failure repeats. */
const numbers = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

const eventsFor = (product: string, start: number, count: number, seed: number, receivedAt = Date.now()) => {
  const random = numbers(seed);
  return Array.from(
    { length: count },
    (): NewUsageEvent =>
      usageEventRow({
        product_code: product,
        event_key: `key_${Math.floor(random() * 5)}`,
        at: start + Math.floor(random() * 3 * DAY),
        received_at: receivedAt,
        device_uid: random() < 0.9 ? `device-${Math.floor(random() * 40)}` : null,
        user_id: random() < 0.5 ? `user-${Math.floor(random() * 15)}` : null,
      }),
  );
};

/** The console's answers, computed from the events table alone. */
const rawCounts = async (product: string, from: number, to: number, bucketMs: number) => {
  const bucket = sql<number>`(${sql.ref('at')} / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
  const rows = await db()
    .selectFrom('usage_events')
    .select(['event_key as key', bucket.as('bucket'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('product_code', '=', product)
    .where('at', '>=', from)
    .where('at', '<', to)
    .groupBy(['event_key', bucket])
    .orderBy('bucket')
    .orderBy('event_key')
    .execute();
  return rows.map((row) => ({ key: row.key, bucket: Number(row.bucket), count: Number(row.count) }));
};

const rawUniques = async (product: string, from: number, to: number) => {
  const row = await db()
    .selectFrom('usage_events')
    .select((eb) => [
      eb.fn.count<number>('device_uid').distinct().as('devices'),
      eb.fn.count<number>('user_id').distinct().as('users'),
      eb.fn.countAll<number>().as('events'),
    ])
    .where('product_code', '=', product)
    .where('at', '>=', from)
    .where('at', '<', to)
    .executeTakeFirstOrThrow();
  return { devices: Number(row.devices), users: Number(row.users), events: Number(row.events) };
};

const hourRollup = (product: string) => hourRollupRows(db(), product);

const rawHours = async (product: string) =>
  (
    await db()
      .selectFrom('usage_events')
      .select((eb) => [
        'event_key',
        sql<number>`(${sql.ref('at')} / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`.as('hour'),
        eb.fn.countAll<number>().as('events'),
      ])
      .where('product_code', '=', product)
      .groupBy(['event_key', 'hour'])
      .orderBy('hour')
      .orderBy('event_key')
      .execute()
  ).map((row) => ({ event_key: row.event_key, hour: Number(row.hour), events: Number(row.events) }));

const visitorRollup = (product: string) => visitorRollupRows(db(), product);

const rawVisitors = async (product: string) => {
  const rows = await db()
    .selectFrom('usage_events')
    .select(['device_uid', 'user_id', 'at'])
    .where('product_code', '=', product)
    .execute();
  const set = new Set<string>();
  for (const row of rows) {
    const day = Math.floor(Number(row.at) / DAY) * DAY;
    if (row.device_uid !== null) set.add(`device ${row.device_uid} ${day}`);
    if (row.user_id !== null) set.add(`user ${row.user_id} ${day}`);
  }
  return [...set].sort();
};

const start = Date.UTC(2026, 2, 10);

describe('usage rollups', () => {
  it('count each event once: a batch written again changes nothing', async () => {
    const product = `rollup-dup-${randomUUID().slice(0, 8)}`;
    const events = eventsFor(product, start, 300, 7);
    await writeUsage(db(), { events, beacons: [] });
    const once = await hourRollup(product);
    // The same batch again, and one half new and half already stored.
    await writeUsage(db(), { events, beacons: [] });
    expect(await hourRollup(product)).toEqual(once);
    const more = eventsFor(product, start, 100, 8);
    await writeUsage(db(), { events: [...events.slice(0, 50), ...more, ...more.slice(0, 10)], beacons: [] });
    const hours = await hourRollup(product);
    expect(hours.reduce((sum, row) => sum + row.events, 0)).toBe(400);
    expect(hours).toEqual(await rawHours(product));
    expect(await visitorRollup(product)).toEqual(await rawVisitors(product));
  });

  it('answer counts by hour and day, and uniques, as the events table does, for aligned and ragged windows', async () => {
    const product = `rollup-win-${randomUUID().slice(0, 8)}`;
    const events = eventsFor(product, start, 2000, 11);
    for (let i = 0; i < events.length; i += 250)
      await writeUsage(db(), { events: events.slice(i, i + 250), beacons: [] });
    const windows: [number, number][] = [
      [start, start + 3 * DAY], // whole days
      [start - DAY, start + 4 * DAY], // wider than the data
      [start + 5 * HOUR, start + 2 * DAY + 7 * HOUR], // whole hours, partial days
      [start + 17 * 60_000 + 3, start + 2 * DAY + 7 * HOUR + 59_999], // partial hours at both ends
      [start + DAY + 10 * 60_000, start + DAY + 50 * 60_000], // within one hour
      [start + 23 * HOUR + 1, start + DAY + HOUR - 1], // across midnight, no whole day
      [start + 2 * HOUR, start + 2 * HOUR], // empty
    ];
    for (const [from, to] of windows) {
      const w = { product, from, to };
      for (const bucket of ['hour', 'day'] as const) {
        expect(await usageCounts(ctx(), w, bucket), `${bucket} ${from}–${to}`).toEqual(
          await rawCounts(product, from, to, BUCKETS[bucket]),
        );
      }
      expect(await usageCounts(ctx(), w, 'day', 'key_2')).toEqual(
        (await rawCounts(product, from, to, DAY)).filter((row) => row.key === 'key_2'),
      );
      expect(await uniques(ctx(), w), `uniques ${from}–${to}`).toEqual(await rawUniques(product, from, to));
    }
  });

  it('retention takes swept events out of the hourly counts and the daily visitor sets', async () => {
    const product = `rollup-ret-${randomUUID().slice(0, 8)}`;
    const now = Date.now();
    // Old arrivals and recent ones over the same days, so some hours and days lose only part of their events.
    await writeUsage(db(), { events: eventsFor(product, start, 500, 21, now - 40 * DAY), beacons: [] });
    await writeUsage(db(), { events: eventsFor(product, start + DAY, 300, 22, now), beacons: [] });
    await writeUsage(db(), { events: eventsFor(product, start + 10 * DAY, 200, 23, now - 40 * DAY), beacons: [] });
    const swept = await deleteUsageBefore(db(), now - 30 * DAY);
    expect(swept.events).toBeGreaterThanOrEqual(700);
    const hours = await hourRollup(product);
    expect(hours.reduce((sum, row) => sum + row.events, 0)).toBe(300);
    expect(hours).toEqual(await rawHours(product));
    expect(await visitorRollup(product)).toEqual(await rawVisitors(product));
    const everything = { product, from: start - DAY, to: start + 20 * DAY };
    expect(await uniques(ctx(), everything)).toEqual(await rawUniques(product, everything.from, everything.to));
  });

  it('retention in small batches leaves the same rollups as in one', async () => {
    const product = `rollup-batch-${randomUUID().slice(0, 8)}`;
    const now = Date.now();
    await writeUsage(db(), { events: eventsFor(product, start, 230, 31, now - 40 * DAY), beacons: [] });
    await writeUsage(db(), { events: eventsFor(product, start, 120, 32, now), beacons: [] });
    const swept = await deleteUsageBefore(db(), now - 30 * DAY, 17);
    expect(swept.events).toBeGreaterThanOrEqual(230);
    const hours = await hourRollup(product);
    expect(hours.reduce((sum, row) => sum + row.events, 0)).toBe(120);
    expect(hours).toEqual(await rawHours(product));
    expect(await visitorRollup(product)).toEqual(await rawVisitors(product));
  });

  it('two processes sweeping at once subtract each deleted event once', async () => {
    // A second process on the same database: its own store and connections. On SQLite it shares this
    // test's thread, where waiting for the other writer's lock blocks the writer it waits for: it gives
    // up at once (busy) instead of after the server's busy timeout, 5 s a round.
    const other = openStore(server.config.databaseUrl);
    sqliteConnection(other.db)?.pragma('busy_timeout = 0');
    try {
      for (let round = 0; round < 3; round++) {
        const product = `rollup-race-${randomUUID().slice(0, 8)}`;
        const now = Date.now();
        // One hour holds 100 events past retention and 100 within it.
        const hour = start + round * DAY;
        const inHour = (events: NewUsageEvent[]) => events.map((e, i) => ({ ...e, event_key: 'k', at: hour + i }));
        await writeUsage(db(), {
          events: inHour(eventsFor(product, hour, 100, 40 + round, now - 40 * DAY)),
          beacons: [],
        });
        await writeUsage(db(), { events: inHour(eventsFor(product, hour, 100, 50 + round, now)), beacons: [] });
        const cutoff = now - 30 * DAY;
        const results = await Promise.allSettled([
          deleteUsageBefore(db(), cutoff),
          deleteUsageBefore(usageDb(other.db), cutoff),
        ]);
        // SQLite may refuse the second writer as busy; whatever was deleted is subtracted once.
        expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
        expect(await hourRollup(product)).toEqual([
          { event_key: 'k', hour: Math.floor(hour / HOUR) * HOUR, events: 100 },
        ]);
        expect(await hourRollup(product)).toEqual(await rawHours(product));
      }
    } finally {
      await other.close();
    }
  });
});
