/**
 * Ceilings on ingestion per IP (collector requests) and per product (rows), in one-minute windows
 * counted in this process: the collectors are the hottest path, so no store round trip per request.
 * Past a ceiling the answer is 503 E_10 with `Retry-After` up to the window's end, which the SDKs
 * honour by keeping the batch and sending it again then.
 */
import type { Context } from '../../context.ts';
import { RetryLater } from '../../errors.ts';
import { countedAddress } from '../security/counted-address.ts';

const WINDOW_MS = 60_000;

interface MinuteCounts {
  start: number;
  counts: Map<string, number>;
}

const windows = new WeakMap<Context, MinuteCounts>();

/** This minute's counts (a new minute starts from nothing, so the map never outgrows one minute's callers). */
const currentWindow = (ctx: Context): MinuteCounts => {
  const now = ctx.now();
  const start = now - (now % WINDOW_MS);
  let window = windows.get(ctx);
  if (window?.start !== start) {
    window = { start, counts: new Map() };
    windows.set(ctx, window);
  }
  return window;
};

/** Adds `amount` to `key` unless that passes `limit`; whether it fit (what is refused is not counted). */
const take = (window: MinuteCounts, key: string, amount: number, limit: number) => {
  const count = (window.counts.get(key) ?? 0) + amount;
  if (count > limit) return false;
  window.counts.set(key, count);
  return true;
};

/** Counts one collector request of `rows` rows from `ip` for `product`; refuses past either ceiling. */
export const limitIngestion = (ctx: Context, ip: string, product: string, rows: number): void => {
  const window = currentWindow(ctx);
  const retryAfter = () => Math.max(1, Math.ceil((window.start + WINDOW_MS - ctx.now()) / 1000));
  if (!take(window, `ip:${countedAddress(ctx, ip)}`, 1, ctx.config.ingestIpPerMinute)) {
    throw new RetryLater(retryAfter(), 'Too many reports from this address; retry later.');
  }
  if (!take(window, `product:${product}`, rows, ctx.config.ingestProductPerMinute)) {
    throw new RetryLater(retryAfter(), 'This product sends more than the server takes; retry later.');
  }
};
