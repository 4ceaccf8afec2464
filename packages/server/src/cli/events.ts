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
import type { EventCursor, NewUsageEvent, StoredEvent } from '../store/usage/events-store.ts';
import { progress } from './progress.ts';

const PAGE = 5000;

export const exportEvents = async (ctx: Context, file: string): Promise<number> => {
  const total = (await ctx.events.counts()).events;
  const bar = progress('exporting', total);
  const out = createWriteStream(file);
  let written = 0;
  let after: EventCursor | undefined;
  for (;;) {
    const rows = await ctx.events.eventsAfter(after, PAGE);
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
const isEventRow = (value: unknown): value is StoredEvent => {
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
  const bar = progress('importing', (await stat(file)).size);
  const report: EventImportReport = { read: 0, problems: [] };
  let batch: NewUsageEvent[] = [];
  let line = 0;
  let bytes = 0;
  const flush = async () => {
    if (batch.length > 0) await ctx.events.write({ events: batch, beacons: [] });
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
