/** Leases: a worker's claim on queued rows (webhook deliveries, back-channel logouts) while it works on them. */
import { type Compilable, type RawBuilder, sql } from 'kysely';
import type { Store } from './db.ts';

/** A worker's claim on rows it is working on: `holder` owns them from `now` until `until`. */
export interface Lease {
  holder: string;
  now: number;
  until: number;
}

/** What claiming needs of a queue table. */
export interface LeasedQueue {
  table: 'webhook_deliveries' | 'backchannel_logouts' | 'data_exports';
  /** The due rows' ids, oldest first, at most the batch. */
  due: () => Promise<{ id: number }[]>;
  /** The same select, locked for update skipping locked rows (PostgreSQL). */
  dueLocked: () => Compilable;
  /** A row's other condition for being claimable (a delivery still pending), if any. */
  stillDue?: RawBuilder<unknown>;
}

/** Transactions that queued rows for a worker (see `queuedForWorkers`). */
const queuing = new WeakSet<object>();

/**
 * Notes that the transaction `db` queued rows for a worker (a webhook delivery, a back-channel
 * logout, an export): the workers of its store are woken when it commits (webhooks/events.ts
 * `inTransaction`), and only then; a commit that queued nothing leaves them to their poll.
 */
export const queuedForWorkers = (db: object) => {
  queuing.add(db);
};

/** Whether the transaction `db` queued rows for a worker. */
export const queuesForWorkers = (db: object) => queuing.has(db);

const free = (lease: Lease) => sql`(lease_until is null or lease_until <= ${lease.now})`;

/**
 * Takes the due rows of a queue for `lease.holder` until `lease.until` and returns their ids: on
 * PostgreSQL in one statement that skips rows other processes hold locked; on SQLite row by row, each
 * update won only while the row is still free (SQLite has one writer, so no row is claimed twice).
 */
export const claimLeased = async (store: Store, queue: LeasedQueue, lease: Lease): Promise<number[]> => {
  const table = sql.table(queue.table);
  const stillDue = queue.stillDue ?? sql`true`;
  if (store.dialect === 'postgres') {
    const { rows } = await sql<{ id: number }>`
      update ${table} set lease_holder = ${lease.holder}, lease_until = ${lease.until}
      where id in (${queue.dueLocked()}) and ${free(lease)}
      returning id`.execute(store.db);
    return rows.map((row) => Number(row.id));
  }
  const claimed: number[] = [];
  for (const { id } of await queue.due()) {
    const won = await sql`
      update ${table} set lease_holder = ${lease.holder}, lease_until = ${lease.until}
      where id = ${id} and ${free(lease)} and ${stillDue}`.execute(store.db);
    if (Number(won.numAffectedRows ?? 0) > 0) claimed.push(Number(id));
  }
  return claimed;
};
