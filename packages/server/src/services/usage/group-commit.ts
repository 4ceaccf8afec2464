/**
 * Group commit for ingestion: rows from many requests go to the store in one transaction, and each
 * request is answered only after the transaction holding its rows has committed — so an acknowledged
 * event survives a crash, and the store does one commit per burst instead of one per request.
 */
import { RetryLater } from '../../errors.ts';
import type { EventsStore, PendingRows } from '../../store/usage/events-store.ts';

/** What a refused request is told to wait: about one group commit under load, rounded up to a second. */
const SATURATED_RETRY_SECONDS = 2;

export interface UsageWriter {
  add(rows: PendingRows): Promise<void>;
  /** Resolves once nothing is waiting or being written. */
  idle(): Promise<void>;
  /** Rows waiting for their transaction (a metric). */
  pending(): number;
}

interface Waiter {
  rows: PendingRows;
  resolve(): void;
  reject(error: unknown): void;
}

/** Writes each request's rows alone: one request's rows the store refuses fail that request only. */
const writeEach = async (store: Pick<EventsStore, 'write'>, waiters: Waiter[]) => {
  for (const waiter of waiters) {
    try {
      await store.write(waiter.rows);
      waiter.resolve();
    } catch (error) {
      waiter.reject(error);
    }
  }
};

/**
 * @param maxPendingRows past this many rows waiting, requests are turned away with 503 and
 * `Retry-After` (the SDKs keep the batch and send it again then), before memory grows without bound.
 */
export const createUsageWriter = (
  store: Pick<EventsStore, 'write'>,
  maxPendingRows: number,
  onSaturated: () => void = () => {},
): UsageWriter => {
  let pending: PendingRows = { events: [], beacons: [] };
  let waiters: Waiter[] = [];
  let running: Promise<void> | undefined;

  const run = async () => {
    // Whatever arrived while a transaction ran is written together by the next one. SQLite's driver
    // is synchronous, so a transaction never yields to the network: wait one turn of the event loop
    // first, letting the requests already received join this transaction.
    while (waiters.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      const batch = pending;
      const answered = waiters;
      pending = { events: [], beacons: [] };
      waiters = [];
      try {
        await store.write(batch);
        for (const waiter of answered) waiter.resolve();
      } catch (error) {
        // The transaction rolled back. With several requests in it, each is written again alone (a
        // stored event id is skipped): the others' rows are kept, only the request refused fails.
        if (answered.length === 1) answered[0]?.reject(error);
        else await writeEach(store, answered);
      }
    }
    running = undefined;
  };

  return {
    add(rows) {
      if (pending.events.length + pending.beacons.length >= maxPendingRows) {
        onSaturated();
        return Promise.reject(new RetryLater(SATURATED_RETRY_SECONDS, 'Ingestion is saturated; retry later.'));
      }
      pending.events.push(...rows.events);
      pending.beacons.push(...rows.beacons);
      const written = new Promise<void>((resolve, reject) => waiters.push({ rows, resolve, reject }));
      running ??= run();
      return written;
    },
    idle: () => running ?? Promise.resolve(),
    pending: () => pending.events.length + pending.beacons.length,
  };
};
