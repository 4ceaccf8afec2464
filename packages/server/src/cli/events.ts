/**
 * `events export <file>` and `events import <file>`: usage events as JSON lines, one stored row a
 * line (every column). An export imported elsewhere reproduces the same rows; importing twice
 * changes nothing, since events are deduplicated by id.
 */

import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Context } from '../context.ts';
import { type NewUsageEvent, type UsageEventsTable, usageDb, writeUsage } from '../store/usage.ts';
import { progress } from './progress.ts';

const PAGE = 5000;

export const exportEvents = async (ctx: Context, file: string): Promise<number> => {
  const db = usageDb(ctx.db);
  const total = Number(
    (
      await db
        .selectFrom('usage_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const bar = progress('exporting', total);
  const out = createWriteStream(file);
  let written = 0;
  let after: { product_code: string; event_id: string } | undefined;
  for (;;) {
    let query = db.selectFrom('usage_events').selectAll().orderBy('product_code').orderBy('event_id').limit(PAGE);
    if (after) {
      const last = after;
      query = query.where((eb) =>
        eb.or([
          eb('product_code', '>', last.product_code),
          eb.and([eb('product_code', '=', last.product_code), eb('event_id', '>', last.event_id)]),
        ]),
      );
    }
    const rows = await query.execute();
    if (rows.length === 0) break;
    if (!out.write(`${rows.map((row) => JSON.stringify(row)).join('\n')}\n`)) await once(out, 'drain');
    written += rows.length;
    bar.update(written);
    after = rows.at(-1);
  }
  out.end();
  await once(out, 'finish');
  bar.finish();
  return written;
};

/** The columns an event row cannot go without (the table's NOT NULL ones). */
const isEventRow = (value: unknown): value is UsageEventsTable => {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.product_code === 'string' &&
    typeof row.event_id === 'string' &&
    typeof row.event_key === 'string' &&
    Number.isFinite(row.at) &&
    Number.isFinite(row.received_at) &&
    typeof row.data === 'string' &&
    typeof row.ip === 'string' &&
    (row.is_dev === 0 || row.is_dev === 1)
  );
};

export interface EventImportReport {
  read: number;
  problems: { line: number; reason: string }[];
}

export const importEvents = async (ctx: Context, file: string): Promise<EventImportReport> => {
  const db = usageDb(ctx.db);
  const bar = progress('importing', (await stat(file)).size);
  const report: EventImportReport = { read: 0, problems: [] };
  let batch: NewUsageEvent[] = [];
  let line = 0;
  let bytes = 0;
  const flush = async () => {
    if (batch.length > 0) await writeUsage(db, { events: batch, beacons: [] });
    batch = [];
    bar.update(bytes);
  };
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    bytes += Buffer.byteLength(text) + 1;
    if (text.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      report.problems.push({ line, reason: 'not JSON' });
      continue;
    }
    if (!isEventRow(row)) {
      report.problems.push({
        line,
        reason: 'not a usage event row (product_code, event_id, event_key, at, received_at, data, ip, is_dev)',
      });
      continue;
    }
    batch.push(row);
    report.read++;
    if (batch.length >= PAGE) await flush();
  }
  await flush();
  bar.finish();
  return report;
};
