/**
 * The ClickHouse rollups and settled answers (server-clickhouse project): the dashboards that read
 * them answer exactly what the raw events answer — for windows cut inside hours and days, for a batch
 * that arrives days late and twice (as a spool replay does), for copies of settled events sent again,
 * across the boundary between settled and unsettled hours, after retention, and on a database whose
 * events predate them.
 */
import { partsBeforeDay, testEventsKind } from '@edupass/test-kit/clickhouse-database';
import { clickhouseEventsSuite } from '@edupass/test-kit/clickhouse-events-suite';
import { usageEventRow } from '@edupass/test-kit/usage-rows';
import { describe, expect, it } from 'vitest';
import { ROLLUP_TABLES } from './clickhouse-rollups.ts';
import { settledDays } from './clickhouse-settled.ts';
import type { Window } from './events-store.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

describe.runIf(testEventsKind() === 'clickhouse')('ClickHouse rollups', () => {
  const suite = clickhouseEventsSuite();
  const { client } = suite;

  const today = Math.floor(Date.now() / DAY) * DAY;
  const start = today - 3 * DAY;
  /** Events every 7 minutes for 45 hours, received `late` after their time. */
  const rows = (product: string, late: number) =>
    Array.from({ length: 2 * 24 * 8 }, (_, n) =>
      usageEventRow({
        product_code: product,
        event_key: `key_${n % 2}`,
        at: start + n * 7 * 60_000,
        received_at: start + n * 7 * 60_000 + late,
        device_uid: `device-${n % 13}`,
        user_id: n % 3 === 0 ? `user-${n % 7}` : null,
        dur: n % 4 === 0 ? (n * 7919) % 500 : null,
      }),
    );

  /** The raw answers: the distinct ids, devices and users of the events themselves. */
  const raw = async (w: Window, bucket: number) => {
    const inWindow = `product_code = '${w.product}' AND at >= ${w.from} AND at < ${w.to}`;
    const counts = await (
      await client.query({
        query: `SELECT event_key AS key, intDiv(at, ${bucket}) * ${bucket} AS bucket, uniqExact(event_id) AS n
          FROM usage_events WHERE ${inWindow} GROUP BY key, bucket ORDER BY bucket, key`,
        format: 'JSONEachRow',
      })
    ).json<{ key: string; bucket: string; n: string }>();
    const [uniques] = await (
      await client.query({
        query: `SELECT uniqExact(device_uid) AS devices, uniqExact(user_id) AS users, uniqExact(event_id) AS events
          FROM usage_events WHERE ${inWindow}`,
        format: 'JSONEachRow',
      })
    ).json<Record<string, string>>();
    return {
      counts: counts.map((row) => ({ key: row.key, bucket: Number(row.bucket), count: Number(row.n) })),
      uniques: { devices: Number(uniques?.devices), users: Number(uniques?.users), events: Number(uniques?.events) },
    };
  };

  const expectEqualToRaw = async (w: Window) => {
    for (const bucket of [HOUR, DAY]) {
      const expected = await raw(w, bucket);
      expect(await suite.store().eventCounts(w, bucket, undefined)).toEqual(expected.counts);
      expect(await suite.store().uniques(w)).toEqual(expected.uniques);
    }
  };

  it('answers what the raw events answer, windows cut inside hours included, a late batch sent twice counted once', async () => {
    const product = 'late';
    const batch = rows(product, 0);
    await suite.store().write({ events: batch, beacons: [] });
    // The same events again, received two days later (a spool replay), plus a late half of new ones.
    const later = rows(product, 2 * DAY).map((row, n) =>
      n % 2 === 0 ? { ...row, event_id: batch[n]!.event_id } : row,
    );
    await suite.store().write({ events: later, beacons: [] });
    await suite.store().write({ events: later.slice(0, 50), beacons: [] });

    const windows = [
      { product, from: start, to: start + 2 * DAY },
      { product, from: start + 17 * 60_000, to: start + 29 * HOUR + 5 * 60_000 },
      { product, from: start + 10 * 60_000, to: start + 50 * 60_000 },
      { product, from: start + HOUR, to: start + HOUR },
    ];
    for (const w of windows) await expectEqualToRaw(w);
    const all = await suite.store().uniques(windows[0]!);
    expect(all.events).toBe(batch.length + later.length / 2);
  });

  /** The windows compared: whole days, cut inside hours, cut inside days, across the boundary `at`. */
  const windowsAround = (product: string, at: number) => [
    { product, from: start, to: start + 2 * DAY },
    { product, from: start + 17 * 60_000, to: start + 29 * HOUR + 5 * 60_000 },
    { product, from: start + DAY, to: start + 2 * DAY },
    { product, from: at - 3 * HOUR - 10 * 60_000, to: at + 5 * HOUR + 20 * 60_000 },
    { product, from: start - DAY, to: start + 3 * DAY },
  ];

  it('answers from settled hours and days what the raw events answer, copies sent again counted once', async () => {
    const product = 'settled';
    const batch = rows(product, 0);
    await suite.store().write({ events: batch, beacons: [] });
    await suite.store().write({ events: batch.slice(0, 40), beacons: [] }); // a retried batch, before any merge
    const settled = await suite.store().settle(Date.now());
    expect(settled.hours).toBeGreaterThan(0);
    expect(settled.days).toBeGreaterThan(0);
    // The two whole days are settled: their visitors come from the masks.
    expect(await settledDays(client, product, start / DAY, start / DAY + 2)).toEqual([start / DAY, start / DAY + 1]);
    for (const w of windowsAround(product, start + DAY)) await expectEqualToRaw(w);
    expect((await suite.store().uniques(windowsAround(product, start)[0]!)).events).toBe(batch.length);

    // Copies of settled events arrive again (a spool replay two days later), with a few new ones.
    const replay = batch
      .filter((_, n) => n % 3 === 0)
      .map((row) => ({ ...row, received_at: row.received_at + 2 * DAY }));
    const fresh = rows(product, DAY).filter((_, n) => n % 5 === 0);
    await suite.store().write({ events: [...replay, ...fresh], beacons: [] });
    expect(await settledDays(client, product, start / DAY, start / DAY + 2)).toEqual([]);
    for (const w of windowsAround(product, start + DAY)) await expectEqualToRaw(w);
    await suite.store().settle(Date.now());
    expect(await settledDays(client, product, start / DAY, start / DAY + 2)).toEqual([start / DAY, start / DAY + 1]);
    for (const w of windowsAround(product, start + DAY)) await expectEqualToRaw(w);
    expect((await suite.store().uniques(windowsAround(product, start)[0]!)).events).toBe(batch.length + fresh.length);
  }, 240_000);

  it('answers across the boundary between settled and unsettled hours, copies on both sides', async () => {
    const product = 'boundary';
    const batch = rows(product, 0);
    await suite.store().write({ events: batch, beacons: [] });
    // The sweep ran at 06:30 on the second day: what came before is settled, the rest is not.
    const sweptAt = start + DAY + 6 * HOUR + 30 * 60_000;
    await suite.store().settle(sweptAt);
    expect(await settledDays(client, product, start / DAY, start / DAY + 2)).toEqual([start / DAY]);
    for (const w of windowsAround(product, sweptAt)) await expectEqualToRaw(w);
    // Copies of events on both sides of the boundary, sent on purpose, twice.
    const copies = batch.filter((row) => Math.abs(row.at - sweptAt) < 4 * HOUR);
    expect(copies.some((row) => row.at < sweptAt) && copies.some((row) => row.at >= sweptAt)).toBe(true);
    await suite.store().write({ events: copies, beacons: [] });
    await suite.store().write({ events: copies, beacons: [] });
    for (const w of windowsAround(product, sweptAt)) await expectEqualToRaw(w);
    expect((await suite.store().uniques(windowsAround(product, start)[0]!)).events).toBe(batch.length);
    await suite.store().settle(Date.now());
    for (const w of windowsAround(product, sweptAt)) await expectEqualToRaw(w);
    expect((await suite.store().uniques(windowsAround(product, start)[0]!)).events).toBe(batch.length);
  }, 240_000);

  it('drops the rollup days with the events at retention', async () => {
    const product = 'kept';
    await suite.store().write({ events: rows(product, 0), beacons: [] });
    await suite.store().write({ events: rows(product, 3 * DAY), beacons: [] });
    await suite.store().settle(Date.now());
    await suite.store().deleteBefore(today);
    const w = { product, from: start, to: start + 2 * DAY };
    await expectEqualToRaw(w);
    await suite.store().settle(Date.now());
    await expectEqualToRaw(w);
    expect((await suite.store().uniques(w)).events).toBe(rows(product, 0).length);
    for (const table of ROLLUP_TABLES) {
      expect([table, await partsBeforeDay(client, table, today / DAY)]).toEqual([table, 0]);
    }
  });

  it('fills rollups created on a database that already holds events', async () => {
    const product = 'before';
    await suite.store().write({ events: rows(product, 0), beacons: [] });
    for (const table of ROLLUP_TABLES) {
      await client.command({ query: `DROP TABLE ${table}_view` });
      await client.command({ query: `DROP TABLE ${table}` });
    }
    await suite.reopen();
    await expectEqualToRaw({ product, from: start + 5 * 60_000, to: start + 2 * DAY });
    const fractions = [0.5, 0.9];
    const durations = rows(product, 0)
      .filter((row) => row.event_key === 'key_0')
      .map((row) => row.dur)
      .filter((dur): dur is number => dur !== null)
      .sort((a, b) => a - b);
    expect(
      await suite.store().durationPercentiles({ product, from: start, to: start + 2 * DAY }, 'key_0', fractions),
    ).toEqual({
      count: durations.length,
      values: fractions.map((f) => durations[Math.ceil(f * durations.length) - 1]),
    });
  });
});
