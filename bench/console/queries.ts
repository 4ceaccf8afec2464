/**
 * The console's dashboard queries at a million stored events on embedded SQLite.
 *
 *   node bench/console/run.mjs          # bundles this file and runs it
 *   EVENTS=1000000 BEACONS=200000 RUNS=5 node bench/console/run.mjs
 *
 * Generates EVENTS usage events over the last 30 days (40 event keys with a long tail, 20,000 devices,
 * 5,000 signed-in users, durations on the timed keys) and BEACONS monitor beacons (JS errors, API
 * outcomes, web-vitals), written through the usage store's batched insert (`writeUsage`). Then times
 * every query the usage and monitoring dashboards make, through the same service functions the
 * routes call, over the default 7-day window and over all 30 days: median of RUNS after one warm-up.
 * The baseline, measured in the same run, is one full scan of the events table. The schema is the one
 * migrated: rollups written by `writeUsage` (005-usage-rollups) and the dashboards' indexes
 * (006-dashboard-indexes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY_MS } from '@edupass/protocol';
import { sql } from 'kysely';
import type { Context } from '../../packages/server/src/context.ts';
import {
  apiFailureRates,
  durations,
  monitorErrors,
  uniques,
  usageCounts,
  vitalsP75,
} from '../../packages/server/src/services/usage/dashboards.ts';
import {
  listApiCodes,
  listErrorGroups,
  vitalsOverTime,
} from '../../packages/server/src/services/usage/monitor-details.ts';
import { openStore } from '../../packages/server/src/store/db.ts';
import { migrate } from '../../packages/server/src/store/migrate.ts';
import {
  type NewBeacon,
  type NewUsageEvent,
  usageDb,
  writeUsage,
} from '../../packages/server/src/store/usage/events.ts';
import { sqlEventsStore } from '../../packages/server/src/store/usage/events-sql.ts';
import type { Window } from '../../packages/server/src/store/usage/events-store.ts';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const BEACONS = Number(process.env.BEACONS ?? 200_000);
const RUNS = Number(process.env.RUNS ?? 5);
const TARGET_MS = 200;
const CHUNK = 50_000;

const SPAN_DAYS = 30;
const PRODUCT = 'edupass';
const now = Date.now();

/** Deterministic pseudo-random numbers (mulberry32), so runs compare. */
let seed = 20261122;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
/** A long tail: key 0 is common, key 39 rare. */
const KEYS = Array.from({ length: 40 }, (_, n) =>
  n < 4 ? ['lesson_open', 'video_watch', 'quiz_submit', 'course_view'][n]! : `feature_${n}`,
);
const keyIndex = () => Math.min(KEYS.length - 1, Math.floor(-Math.log(1 - random()) * 6));
const TIMED = new Set(['video_watch', 'feature_5', 'feature_9']);

const eventRow = (n: number): NewUsageEvent => {
  const key = KEYS[keyIndex()]!;
  const device = Math.floor(random() * 20_000);
  return {
    product_code: PRODUCT,
    event_id: `bench-${n.toString(36).padStart(8, '0')}`,
    event_key: key,
    at: now - Math.floor(random() * SPAN_DAYS * DAY_MS),
    received_at: now,
    dur: TIMED.has(key) ? Math.round(200 + -Math.log(1 - random()) * 30_000) : null,
    data: '{"course":"algebra-1"}',
    device_uid: `device-${device}`,
    user_id: random() < 0.6 ? `user-${device % 5000}` : null,
    process_id: null,
    ip: '127.0.0.1',
    ua: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156',
    platform: null,
    net: null,
    language: 'zh-CN',
    resolution: null,
    cpu: 8,
    density: null,
    is_dev: 0,
  };
};

const ERRORS = Array.from(
  { length: 300 },
  (_, n) => `TypeError: Cannot read properties of undefined (reading 'f${n}')`,
);
const PATHS = Array.from({ length: 60 }, (_, n) => `/tiger/v3/web/accounts/call-${n}`);
const VITALS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'];
const beaconRow = (): NewBeacon => {
  const received = now - Math.floor(random() * SPAN_DAYS * DAY_MS);
  const kind = pick(['perf', 'perf', 'api', 'api', 'api', 'error']);
  const base = {
    product_code: PRODUCT,
    kind,
    page: '/lesson',
    ip: '127.0.0.1',
    ua: null,
    at: received,
    received_at: received,
  };
  if (kind === 'error')
    return { ...base, name: ERRORS[keyIndex() * 7 + Math.floor(random() * 7)] ?? ERRORS[0]!, stack: 'at x' };
  if (kind === 'perf') {
    const name = pick(VITALS);
    return { ...base, name, value: name === 'CLS' ? random() / 4 : Math.round(100 + random() * 3000) };
  }
  const outcome = random();
  const code =
    outcome < 0.9 ? 200 : outcome < 0.94 ? pick([400, 401, 404]) : outcome < 0.97 ? 500 : pick([601, 602, 603, 604]);
  return {
    ...base,
    url: pick(PATHS),
    method: 'POST',
    code,
    business: code >= 400 && code <= 499 ? 1 : 0,
    value: Math.round(random() * 800),
  };
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const timeIt = async (run: () => Promise<unknown>) => {
  await run(); // warm-up: statement preparation and page cache
  const times: number[] = [];
  let size = 0;
  for (let n = 0; n < RUNS; n++) {
    const started = performance.now();
    const answer = await run();
    times.push(performance.now() - started);
    size = Array.isArray(answer) ? answer.length : 1;
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), size };
};

const scratch = mkdtempSync(join(tmpdir(), 'edupass-bench-console-'));
const store = openStore(join(scratch, 'console.db'));
try {
  await migrate(store);
  const db = usageDb(store.db);
  const ctx = { db: store.db, events: sqlEventsStore(store.db), now: () => now } as unknown as Context;

  const insertStarted = performance.now();
  for (let offset = 0; offset < EVENTS; offset += CHUNK) {
    const events = Array.from({ length: Math.min(CHUNK, EVENTS - offset) }, (_, k) => eventRow(offset + k));
    await writeUsage(db, { events, beacons: [] });
  }
  const eventSeconds = (performance.now() - insertStarted) / 1000;
  const beaconStarted = performance.now();
  for (let offset = 0; offset < BEACONS; offset += CHUNK) {
    const beacons = Array.from({ length: Math.min(CHUNK, BEACONS - offset) }, beaconRow);
    await writeUsage(db, { events: [], beacons });
  }
  const beaconSeconds = (performance.now() - beaconStarted) / 1000;
  await sql`analyze`.execute(store.db);
  console.log(
    `Generated ${EVENTS.toLocaleString('en')} events in ${eventSeconds.toFixed(1)} s (${Math.round(EVENTS / eventSeconds).toLocaleString('en')} rows/s) and ${BEACONS.toLocaleString('en')} beacons in ${beaconSeconds.toFixed(1)} s, through writeUsage in transactions of ${CHUNK.toLocaleString('en')}.`,
  );

  const baseline = await timeIt(() => sql`select sum(length(event_key)) as n from usage_events`.execute(store.db));
  const week: Window = { product: PRODUCT, from: now - 7 * DAY_MS, to: now };
  const month: Window = { product: PRODUCT, from: now - SPAN_DAYS * DAY_MS, to: now };
  const windows = [
    ['7 days', week],
    ['30 days', month],
  ] as const;
  const queries: [string, (w: Window) => Promise<unknown>][] = [
    ['usage/events by day (all keys)', (w) => usageCounts(ctx, w, 'day')],
    ['usage/events by hour (all keys)', (w) => usageCounts(ctx, w, 'hour')],
    ['usage/events by day (one key)', (w) => usageCounts(ctx, w, 'day', 'quiz_submit')],
    ['usage/uniques', (w) => uniques(ctx, w)],
    ['usage/durations (video_watch)', (w) => durations(ctx, w, 'video_watch')],
    ['monitor/errors', (w) => monitorErrors(ctx, w)],
    ['monitor/error-groups', (w) => listErrorGroups(ctx, w)],
    ['monitor/api', (w) => apiFailureRates(ctx, w)],
    ['monitor/api-codes', (w) => listApiCodes(ctx, w)],
    ['monitor/vitals', (w) => vitalsP75(ctx, w)],
    ['monitor/vitals-series by day', (w) => vitalsOverTime(ctx, w, 'day')],
  ];

  const measure = async (title: string) => {
    const rows: string[][] = [];
    let over = 0;
    for (const [name, query] of queries) {
      for (const [label, w] of windows) {
        const t = await timeIt(() => query(w));
        if (t.median >= TARGET_MS) over++;
        rows.push([
          name,
          label,
          String(t.size),
          t.median.toFixed(1),
          `${t.min.toFixed(1)}–${t.max.toFixed(1)}`,
          `${(t.median / baseline.median).toFixed(2)}×`,
          t.median < TARGET_MS ? 'ok' : 'OVER',
        ]);
      }
    }
    const header = ['query', 'window', 'rows', 'median ms', 'min–max ms', 'vs full scan', `< ${TARGET_MS} ms`];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log(`\n${title}\n`);
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows) console.log(line(row));
    console.log(
      `\n${rows.length - over} of ${rows.length} under ${TARGET_MS} ms (median of ${RUNS} runs, after one warm-up).`,
    );
  };

  console.log(
    `\nBaseline: one full scan, select sum(length(event_key)) from usage_events — median ${baseline.median.toFixed(1)} ms (of ${RUNS}).`,
  );
  await measure('The schema as migrated (rollups of 005-usage-rollups, indexes of 006-dashboard-indexes).');
} finally {
  await store.close();
  rmSync(scratch, { recursive: true, force: true });
}
