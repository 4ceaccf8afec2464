/**
 * The time to build a person's copy of their data with 100,000 usage events (and 20,000 of another
 * person beside them, which the copy must skip), through the function the export worker calls, on
 * embedded SQLite and on PostgreSQL (EDUPASS_BENCH_PG_URL, default the local server; a scratch
 * database is created and dropped). Each database is measured ROUNDS times; the median, the slowest,
 * the zip's size and the machine's load average are printed.
 *
 *   node bench/data-export/run.mjs
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { loadConfig } from '../../packages/server/src/config/config.ts';
import { type Context, createContext } from '../../packages/server/src/context.ts';
import { buildExportZip } from '../../packages/server/src/services/account/data-export.ts';
import { newUser } from '../../packages/server/src/services/sign-in/sign-up.ts';
import { insertUser } from '../../packages/server/src/store/account/users.ts';
import { onBothDatabases } from '../both-databases.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createContext>[1];

const EVENTS = 100_000;
const OTHERS = 20_000;
const BATCH = 5_000;
const ROUNDS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const addEvents = async (ctx: Context, userId: number, count: number) => {
  const now = Date.now();
  for (let from = 0; from < count; from += BATCH) {
    await ctx.events.write({
      events: Array.from({ length: Math.min(BATCH, count - from) }, (_, n) => ({
        product_code: 'edupass',
        event_id: randomUUID(),
        event_key: 'lesson_open',
        at: now - (from + n) * 1000,
        received_at: now,
        dur: null,
        data: JSON.stringify({ lesson: (from + n) % 300 }),
        device_uid: `device-${userId}`,
        user_id: String(userId),
        process_id: null,
        ip: '203.0.113.7',
        ua: 'Mozilla/5.0 (bench)',
        platform: 'web',
        net: null,
        language: 'zh-CN',
        resolution: '1280x800',
        cpu: null,
        density: null,
        is_dev: 0,
      })),
      beacons: [],
    });
  }
};

const run = async (label: string, databaseUrl: string) => {
  const ctx = await createContext(loadConfig({ ...process.env, DATABASE_URL: databaseUrl }), silent);
  try {
    const phone = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const person = await insertUser(ctx.db, newUser(ctx, { pid: 'edupass', phone: phone() }));
    const other = await insertUser(ctx.db, newUser(ctx, { pid: 'edupass', phone: phone() }));
    if (!person || !other) throw new Error('no user');
    await addEvents(ctx, person.id, EVENTS);
    await addEvents(ctx, other.id, OTHERS);
    const times: number[] = [];
    let bytes = 0;
    for (let n = 0; n < ROUNDS; n++) {
      const started = performance.now();
      bytes = (await buildExportZip(ctx, person.id, 'en')).length;
      times.push(performance.now() - started);
    }
    const figures = {
      database: label,
      usageEvents: EVENTS,
      otherUsersEvents: OTHERS,
      exportMs: Math.round(median(times)),
      exportSlowestMs: Math.round(Math.max(...times)),
      zipBytes: bytes,
      loadAverage1m: Number(loadavg()[0]?.toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await ctx.close();
  }
};

await onBothDatabases('export', run);
