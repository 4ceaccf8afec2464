/** Data exports (migration 030): asked for, claimed under a lease, built, downloaded once, swept. */
import type { Kysely } from 'kysely';
import type { Store } from '../db.ts';
import { claimLeased, type Lease, queuedForWorkers } from '../lease.ts';
import type { Database } from '../schema.ts';
import type { ExportRequester } from './data-rights-schema.ts';

type Db = Kysely<Database>;

/** What a list of exports shows (never the file). */
const VIEW = ['id', 'user_id', 'state', 'created_at', 'link_expires_at', 'link_sealed'] as const;

export const insertExport = async (
  db: Db,
  row: { user_id: number; requested_by: ExportRequester; requester_id: number; lang: string; created_at: number },
) => {
  const queued = await db
    .insertInto('data_exports')
    .values({ ...row, state: 'queued' })
    .returning(VIEW)
    .executeTakeFirstOrThrow();
  queuedForWorkers(db);
  return queued;
};

/** The exports `requesterId` asked for of `userId`'s data, newest first. */
export const exportsAskedBy = (db: Db, requesterId: number, userId: number, limit: number) =>
  db
    .selectFrom('data_exports')
    .select(VIEW)
    .where('requester_id', '=', requesterId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

export type ExportView = Awaited<ReturnType<typeof exportsAskedBy>>[number];

const dueIds = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('data_exports')
    .select('id')
    .where('state', '=', 'queued')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .orderBy('id')
    .limit(limit);

/** Takes up to `limit` queued exports for this holder until `lease.until` (one left half-built is taken again). */
export const claimQueuedExports = async (store: Store, lease: Lease, limit: number) => {
  const ids = await claimLeased(
    store,
    {
      table: 'data_exports',
      due: () => dueIds(store.db, lease.now, limit).execute(),
      dueLocked: () => dueIds(store.db, lease.now, limit).forUpdate().skipLocked(),
    },
    lease,
  );
  if (ids.length === 0) return [];
  return store.db
    .selectFrom('data_exports')
    .select(['id', 'user_id', 'requester_id', 'lang', 'attempts'])
    .where('id', 'in', ids)
    .execute();
};

export type QueuedExport = Awaited<ReturnType<typeof claimQueuedExports>>[number];

/** Built: the zip and its link are kept; only the lease holder's. */
export const finishExport = (
  db: Db,
  holder: string,
  id: number,
  done: { file: Buffer; link_hash: string; link_sealed: string; link_expires_at: number; finished_at: number },
) =>
  db
    .updateTable('data_exports')
    .set({ ...done, state: 'ready', lease_holder: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_holder', '=', holder)
    .executeTakeFirst();

/** Failed: tried again by the next pass, or given up (`failed`) after the last attempt. */
export const failExport = (db: Db, holder: string, id: number, attempts: number, giveUp: boolean, now: number) =>
  db
    .updateTable('data_exports')
    .set({
      attempts,
      lease_holder: null,
      lease_until: null,
      ...(giveUp ? { state: 'failed' as const, finished_at: now } : {}),
    })
    .where('id', '=', id)
    .where('lease_holder', '=', holder)
    .execute();

/** The ready export a link's hash names, while the link works. */
export const readyExportByLink = (db: Db, linkHash: string, now: number) =>
  db
    .selectFrom('data_exports')
    .select(['id', 'user_id', 'requested_by', 'requester_id', 'file'])
    .where('link_hash', '=', linkHash)
    .where('state', '=', 'ready')
    .where('link_expires_at', '>', now)
    .executeTakeFirst();

/** Spends the link: true for the one download that won; the file goes with it. */
export const spendExportLink = async (db: Db, id: number) => {
  const spent = await db
    .updateTable('data_exports')
    .set({ state: 'used', file: null, link_sealed: null })
    .where('id', '=', id)
    .where('state', '=', 'ready')
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
};
