/** Back-channel logouts waiting to be posted (migration 020): written, claimed under a lease, finished. */
import type { Kysely } from 'kysely';
import type { Store } from '../db.ts';
import { claimLeased, type Lease, queuedForWorkers } from '../lease.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export interface LogoutToSend {
  client_id: string;
  account_id: string;
  sid: string;
}

export const insertLogouts = async (db: Db, logouts: LogoutToSend[], now: number, giveUpAt: number) => {
  if (logouts.length === 0) return;
  await db
    .insertInto('backchannel_logouts')
    .values(logouts.map((l) => ({ ...l, attempts: 0, next_attempt_at: now, give_up_at: giveUpAt, created_at: now })))
    .onConflict((conflict) => conflict.columns(['client_id', 'sid']).doNothing())
    .execute();
  queuedForWorkers(db);
};

const dueIds = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('backchannel_logouts')
    .select('id')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);

/** Takes up to `limit` due logouts for this holder until `lease.until`. */
export const claimDueLogouts = async (store: Store, lease: Lease, limit: number) => {
  const ids = await claimLeased(
    store,
    {
      table: 'backchannel_logouts',
      due: () => dueIds(store.db, lease.now, limit).execute(),
      dueLocked: () => dueIds(store.db, lease.now, limit).forUpdate().skipLocked(),
    },
    lease,
  );
  if (ids.length === 0) return [];
  return store.db.selectFrom('backchannel_logouts').selectAll().where('id', 'in', ids).execute();
};

export type ClaimedLogout = Awaited<ReturnType<typeof claimDueLogouts>>[number];

/** Done (posted, or given up): the row goes. Only the lease holder's. */
export const removeLogout = (db: Db, holder: string, id: number) =>
  db.deleteFrom('backchannel_logouts').where('id', '=', id).where('lease_holder', '=', holder).execute();

/** Failed for now: tried again at `nextAt`. Only the lease holder's. */
export const retryLogoutAt = (db: Db, holder: string, id: number, attempts: number, nextAt: number) =>
  db
    .updateTable('backchannel_logouts')
    .set({ attempts, next_attempt_at: nextAt, lease_holder: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_holder', '=', holder)
    .execute();
