/**
 * The usage write (`writeUsage`) on the store under test: every column kept as given, each event id
 * stored and counted once however often it comes, and on SQLite (where the write runs on
 * better-sqlite3's own statements) no mixing with a Kysely transaction open on the same connection.
 */
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { useTestStore } from '@edupass/test-kit/test-store';
import { hourRollupRows, usageEventRow, visitorRollupRows } from '@edupass/test-kit/usage-rows';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sqliteConnection } from '../db.ts';
import { deleteEvents, type NewBeacon, type NewUsageEvent, usageDb, writeUsage } from './events.ts';
import { type InsertedEvent, rollupDeltas } from './rollups.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

const store = useTestStore();
const db = () => usageDb(store().db);

let products = 0;
const nextProduct = () => `write-${++products}`;

/** A row with a distinct value in every column, so a column bound in the wrong place shows. */
const fullRow = (product: string, n: number): NewUsageEvent => ({
  product_code: product,
  event_id: `full-${product}-${n}`,
  event_key: `key-${n % 2}`,
  at: Date.UTC(2026, 4, 1, n) + n,
  received_at: Date.UTC(2026, 4, 2) + n,
  dur: 1000 + n,
  data: JSON.stringify({ n }),
  device_uid: `device-${n}`,
  user_id: `user-${n}`,
  process_id: `page-${n}`,
  ip: `10.0.0.${n}`,
  ua: `agent-${n}`,
  platform: `platform-${n}`,
  net: `4g-${n}`,
  language: `zh-${n}`,
  resolution: `${n}x${n}`,
  cpu: n + 2,
  density: n + 0.5,
  is_dev: n % 2,
});

const storedEvents = async (product: string) =>
  (
    await db().selectFrom('usage_events').selectAll().where('product_code', '=', product).orderBy('event_id').execute()
  ).map((row) => ({
    ...row,
    at: Number(row.at),
    received_at: Number(row.received_at),
    dur: row.dur === null ? null : Number(row.dur),
  }));

const hourCounts = (product: string) => hourRollupRows(db(), product);
const visitorDays = (product: string) => visitorRollupRows(db(), product);

describe('writeUsage', () => {
  it('keeps every column of events and beacons as given', async () => {
    const product = nextProduct();
    const events = [
      fullRow(product, 1),
      fullRow(product, 2),
      usageEventRow({ product_code: product, event_key: 'bare', at: 5, received_at: 6 }),
    ];
    const beacon: NewBeacon = {
      product_code: product,
      kind: 'api',
      page: '/lesson',
      name: 'fetch failed',
      value: 12.5,
      url: '/api/lessons',
      method: 'GET',
      code: 503,
      business: 1,
      stack: 'at lesson.js:1',
      ip: '10.0.0.9',
      ua: 'agent-9',
      at: 111,
      received_at: 222,
    };
    await writeUsage(db(), { events, beacons: [beacon] });
    const expected = events
      .map((row) => ({ ...usageEventRow({ product_code: product, event_key: '', at: 0, received_at: 0 }), ...row }))
      .sort((a, b) => a.event_id.localeCompare(b.event_id));
    expect(await storedEvents(product)).toEqual(expected);
    const [stored] = await db().selectFrom('monitor_beacons').selectAll().where('product_code', '=', product).execute();
    expect({ ...stored, at: Number(stored?.at), received_at: Number(stored?.received_at) }).toMatchObject(beacon);
  });

  it('stores and counts an id repeated within one write and across writes once', async () => {
    const product = nextProduct();
    const start = Date.UTC(2026, 4, 3);
    const rows = Array.from({ length: 30 }, (_, n) =>
      usageEventRow({
        product_code: product,
        event_id: `once-${n}`,
        event_key: `key-${n % 3}`,
        at: start + (n % 4) * HOUR + (n % 2) * DAY,
        received_at: start,
        device_uid: `device-${n % 5}`,
        user_id: n % 2 === 0 ? `user-${n % 3}` : null,
      }),
    );
    // The first write holds ten ids twice; the second all thirty again, with new values that must not win.
    await writeUsage(db(), { events: [...rows, ...rows.slice(0, 10)], beacons: [] });
    await writeUsage(db(), { events: rows.map((row) => ({ ...row, event_key: 'changed' })), beacons: [] });
    const stored = await storedEvents(product);
    expect(stored.map((row) => row.event_id).sort()).toEqual(rows.map((row) => row.event_id).sort());
    expect(stored.every((row) => row.event_key !== 'changed')).toBe(true);
    // The rollups hold exactly what the stored rows say.
    const deltas = rollupDeltas(rows);
    expect(await hourCounts(product)).toEqual(
      deltas.hours
        .map(({ event_key, hour, events }) => ({ event_key, hour, events }))
        .sort((a, b) => a.hour - b.hour || a.event_key.localeCompare(b.event_key)),
    );
    expect(await visitorDays(product)).toEqual(deltas.visitors.map((v) => `${v.kind} ${v.visitor} ${v.day}`).sort());
  });

  it.runIf(testDatabaseKind() === 'sqlite')(
    'on SQLite runs on the connection itself, after a Kysely transaction open on it, never inside it',
    async () => {
      expect(sqliteConnection(db())).toBeDefined();
      const product = nextProduct();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let began = () => {};
      const begun = new Promise<void>((resolve) => {
        began = resolve;
      });
      // A transaction that inserts, waits between two statements, then rolls back.
      const rolledBack = db()
        .transaction()
        .execute(async (tx) => {
          await tx
            .insertInto('usage_events')
            .values(
              usageEventRow({ product_code: product, event_id: 'rolled-back', event_key: 'k', at: 1, received_at: 1 }),
            )
            .execute();
          began();
          await held;
          throw new Error('roll back');
        })
        .catch((error: Error) => error.message);
      await begun;
      const written = writeUsage(db(), {
        events: [usageEventRow({ product_code: product, event_id: 'kept', event_key: 'k', at: 1, received_at: 1 })],
        beacons: [],
      });
      release();
      expect(await rolledBack).toBe('roll back');
      await written;
      expect((await storedEvents(product)).map((row) => row.event_id)).toEqual(['kept']);
      expect(await hourCounts(product)).toEqual([{ event_key: 'k', hour: 0, events: 1 }]);
    },
  );
});

describe('rollupDeltas', () => {
  const event = fc.record({
    product_code: fc.constantFrom('p1', 'p2'),
    event_key: fc.constantFrom('a', 'b', 'c'),
    at: fc.integer({ min: 0, max: 3 * DAY }),
    device_uid: fc.option(fc.constantFrom('d1', 'd2', 'd3'), { nil: null }),
    user_id: fc.option(fc.constantFrom('u1', 'u2'), { nil: undefined }),
  });

  it('adds one count per event to its (product, key, hour), and each visitor once per day', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events: InsertedEvent[]) => {
        const counts = new Map<string, number>();
        const visitors = new Set<string>();
        for (const row of events) {
          const hour = Math.floor(Number(row.at) / HOUR) * HOUR;
          const day = Math.floor(Number(row.at) / DAY) * DAY;
          const key = `${row.product_code} ${row.event_key} ${hour}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
          if (row.device_uid) visitors.add(`${row.product_code} device ${row.device_uid} ${day}`);
          if (row.user_id) visitors.add(`${row.product_code} user ${row.user_id} ${day}`);
        }
        const deltas = rollupDeltas(events);
        expect(new Map(deltas.hours.map((h) => [`${h.product_code} ${h.event_key} ${h.hour}`, h.events]))).toEqual(
          counts,
        );
        expect(deltas.hours).toHaveLength(counts.size);
        expect(deltas.visitors.map((v) => `${v.product_code} ${v.kind} ${v.visitor} ${v.day}`).sort()).toEqual(
          [...visitors].sort(),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('erasing a user from the usage tables', () => {
  it('takes their events, their hours and them and their devices out of the days they were seen; nothing of anyone else', async () => {
    const product = nextProduct();
    const day1 = Date.UTC(2026, 4, 1);
    const day2 = day1 + DAY;
    const row = (at: number, user: string | null, device: string) =>
      usageEventRow({
        product_code: product,
        event_key: 'view',
        at,
        received_at: at,
        user_id: user,
        device_uid: device,
      });
    await writeUsage(db(), {
      events: [
        row(day1 + HOUR, 'gone', 'tablet'),
        row(day1 + 2 * HOUR, 'gone', 'tablet'),
        row(day2 + HOUR, 'gone', 'phone'),
        row(day1 + HOUR, 'stays', 'laptop'),
        row(day2 + 3 * HOUR, 'stays', 'laptop'),
      ],
      beacons: [],
    });
    expect(await deleteEvents(db(), ['user_id', '=', 'gone'])).toBe(3);
    expect((await storedEvents(product)).map((e) => e.user_id)).toEqual(['stays', 'stays']);
    expect(await visitorDays(product)).toEqual(
      [`device laptop ${day1}`, `device laptop ${day2}`, `user stays ${day1}`, `user stays ${day2}`].sort(),
    );
    expect(await hourCounts(product)).toEqual([
      { event_key: 'view', hour: day1 + HOUR, events: 1 },
      { event_key: 'view', hour: day2 + 3 * HOUR, events: 1 },
    ]);
  });
});
