/**
 * One sweeper at a time across every process on the database: on PostgreSQL a session advisory
 * lock (let go when the sweep ends or its connection dies), on SQLite a lease row (let go when the
 * sweep ends, or when it expires if the holder died). A process that does not get it skips this
 * round: another one is sweeping.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from './db.ts';

/** The advisory lock's key pair: 'EDUP' and the sweep's number. */
const LOCK_CLASS = 0x45445550;
const SWEEP_LOCK = 1;

const LEASE = 'sweep';
/** A dead holder's lease lapses after this long: the next hourly sweep then runs. */
const LEASE_MS = 55 * 60_000;

const holder = randomUUID();

const withAdvisoryLock = <T>(store: Store, work: () => Promise<T>): Promise<T | undefined> =>
  store.db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      got: boolean;
    }>`select pg_try_advisory_lock(${LOCK_CLASS}, ${SWEEP_LOCK}) as got`.execute(connection);
    if (!rows[0]?.got) return undefined;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_CLASS}, ${SWEEP_LOCK})`.execute(connection).catch(() => {});
    }
  });

const withLease = async <T>(store: Store, now: number, work: () => Promise<T>): Promise<T | undefined> => {
  const taken = await store.db
    .insertInto('leases')
    .values({ name: LEASE, holder, expires_at: now + LEASE_MS })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: now + LEASE_MS })
        .where('leases.expires_at', '<=', now),
    )
    .executeTakeFirst();
  if (Number(taken.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
  try {
    return await work();
  } finally {
    await store.db.deleteFrom('leases').where('name', '=', LEASE).where('holder', '=', holder).execute();
  }
};

/** Runs `work` when no other process is sweeping; undefined when one is. */
export const withSweepLock = <T>(store: Store, now: number, work: () => Promise<T>): Promise<T | undefined> =>
  store.dialect === 'postgres' ? withAdvisoryLock(store, work) : withLease(store, now, work);
