/**
 * Usage and monitor ingestion (§7 "Usage reporting", "Monitoring beacon"): known products only,
 * device info with the ip the server saw, deduplicated and group-committed writes. (Retention is
 * services/platform/housekeeping.ts's hourly sweep.)
 */
import type { MonitorBeacon, ReportPayload, ServerTime } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { productCodes, usageDb } from '../../store/usage/events.ts';
import type { NewUsageEvent } from '../../store/usage/events-store.ts';
import type { ClientInfo } from '../sessions/tokens.ts';
import { createUsageWriter, type UsageWriter } from './group-commit.ts';
import { limitIngestion } from './ingest-limits.ts';

const writers = new WeakMap<Context, UsageWriter>();
const products = new WeakMap<Context, { codes: Set<string>; loadedAt: number }>();

const usageWriter = (ctx: Context): UsageWriter => {
  let writer = writers.get(ctx);
  if (!writer) {
    writer = createUsageWriter(ctx.events, ctx.config.ingestQueueRows, () => ctx.metrics.ingestionRefused.inc());
    writers.set(ctx, writer);
    ctx.metrics.sources.ingestionPending = writer.pending;
  }
  return writer;
};

/** Product codes are cached; an unknown one reloads them at most once a second, so junk codes cannot hammer the store. */
const requireKnownProduct = async (ctx: Context, code: string): Promise<void> => {
  let known = products.get(ctx);
  if (!known?.codes.has(code) && (!known || ctx.now() - known.loadedAt > 1000)) {
    known = { codes: new Set(await productCodes(usageDb(ctx.db))), loadedAt: ctx.now() };
    products.set(ctx, known);
  }
  if (!known.codes.has(code)) throw new ApiError('E_2', `Unknown product code "${code}".`);
};

/** A checked batch (http/usage-parse.ts), with each event's `d` as JSON, as stored (and measured). */
export interface CheckedReport {
  payload: ReportPayload;
  dataJson: readonly string[];
}

export const serverTime = (ctx: Context): ServerTime => ({ now: ctx.now() });

/** Stores a validated batch; resolves once it is committed (the 204 means "kept"). */
export const ingestReport = async (ctx: Context, report: CheckedReport, client: ClientInfo): Promise<void> => {
  const { m, e, b } = report.payload.data;
  const { dataJson } = report;
  await requireKnownProduct(ctx, m.p);
  limitIngestion(ctx, client.ip, m.p, b.length);
  const receivedAt = ctx.now();
  // The ip is device info: kept only when the client sent device info, i.e. had the device consent.
  const ip = e.uid !== undefined || e.ua !== undefined ? client.ip : '';
  const rows = b.map(
    (event, index): NewUsageEvent => ({
      product_code: m.p,
      event_id: event.i,
      event_key: event.e,
      at: event.t * 1000,
      received_at: receivedAt,
      dur: event.dur ?? null,
      data: dataJson[index] as string,
      device_uid: e.uid ?? null,
      user_id: e.user_id ?? null,
      process_id: e.process_id ?? null,
      ip,
      ua: e.ua ?? null,
      platform: e.platform ?? null,
      net: e.net ?? null,
      language: e.la ?? null,
      resolution: e.resolution ?? null,
      cpu: e.cpu ?? null,
      density: e.density ?? null,
      is_dev: m.tst,
    }),
  );
  await usageWriter(ctx).add({ events: rows, beacons: [] });
};

export const ingestBeacon = async (ctx: Context, beacon: MonitorBeacon, client: ClientInfo): Promise<void> => {
  await requireKnownProduct(ctx, beacon.p);
  limitIngestion(ctx, client.ip, beacon.p, 1);
  await usageWriter(ctx).add({
    events: [],
    beacons: [
      {
        product_code: beacon.p,
        kind: beacon.k,
        page: beacon.pg,
        name: beacon.n ?? null,
        value: beacon.v ?? null,
        url: beacon.u ?? null,
        method: beacon.m ?? null,
        code: beacon.c ?? null,
        business: beacon.b ?? null,
        stack: beacon.s ?? null,
        ip: client.ip,
        ua: client.userAgent.slice(0, 512) || null,
        at: beacon.t,
        received_at: ctx.now(),
      },
    ],
  });
};

/** Resolves once every row handed to the writer is stored: the server waits for it before closing the store. */
export const usageWritten = (ctx: Context): Promise<void> => usageWriter(ctx).idle();
