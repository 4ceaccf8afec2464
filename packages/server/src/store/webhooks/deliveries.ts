/**
 * The webhook outbox: events, one delivery per subscribed endpoint, and the log of attempts.
 * Deliveries are claimed under a lease so that however many processes share the database, one
 * attempt stream runs per delivery: PostgreSQL hands each due row to one claimer (`FOR UPDATE SKIP
 * LOCKED`), SQLite (whose writes run one at a time) by a conditional UPDATE that only one can win.
 */
import { type Kysely, sql } from 'kysely';
import type { Store } from '../db.ts';
import { SWEEP_BATCH as BATCH } from '../in-batches.ts';
import { claimLeased, type Lease, queuedForWorkers } from '../lease.ts';
import type { Database, WebhookDeliveriesTable } from '../schema.ts';
import { storedWebhookPayload } from '../sealed-records.ts';

type Db = Kysely<Database>;

export interface NewEvent {
  id: string;
  type: string;
  pid: string;
  payload: string;
  user_id: number;
  created_at: number;
}

/**
 * Writes an event and its deliveries, in the caller's transaction (the change's own). The payload is
 * stored sealed (a child's new name, a new phone) and opened when a delivery is claimed.
 */
export const insertEvent = async (db: Db, event: NewEvent, endpointIds: number[], giveUpAt: number) => {
  await db
    .insertInto('webhook_events')
    .values({ ...event, payload: storedWebhookPayload(db, event.payload) })
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpoint_id) => ({
        event_id: event.id,
        endpoint_id,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: event.created_at,
        give_up_at: giveUpAt,
        lease_holder: null,
        lease_until: null,
        created_at: event.created_at,
      })),
    )
    .execute();
  queuedForWorkers(db);
};

/** The user's next event number, in the caller's transaction (the row lock orders one user's events). */
export const nextUserSequence = async (db: Db, userId: number): Promise<number> => {
  const row = await db
    .insertInto('webhook_sequences')
    .values({ user_id: userId, last: 1 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ last: eb('webhook_sequences.last', '+', 1) })))
    .returning('last')
    .executeTakeFirstOrThrow();
  return Number(row.last);
};

const dueIds = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select('d.id')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', now)]))
    .where('e.enabled', '=', 1)
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(limit);

export type { Lease };

/** A claimed delivery with what sending it takes. */
export const claimedDeliveries = (db: Db, ids: number[]) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.event_id',
      'd.endpoint_id',
      'd.attempts',
      'd.give_up_at',
      'd.created_at',
      'v.payload',
      'e.url',
      'e.secret_sealed',
    ])
    .where('d.id', 'in', ids)
    .execute();

export type ClaimedDelivery = Awaited<ReturnType<typeof claimedDeliveries>>[number];

/** Takes up to `limit` due deliveries of enabled endpoints for this holder until `lease.until`. */
export const claimDue = async (store: Store, lease: Lease, limit: number): Promise<ClaimedDelivery[]> => {
  const ids = await claimLeased(
    store,
    {
      table: 'webhook_deliveries',
      due: () => dueIds(store.db, lease.now, limit).execute(),
      dueLocked: () => dueIds(store.db, lease.now, limit).forUpdate('d').skipLocked(),
      stillDue: sql`status = 'pending'`,
    },
    lease,
  );
  return ids.length === 0 ? [] : claimedDeliveries(store.db, ids);
};

/** Records how an attempt ended and lets go of the lease (only the holder's own). */
export const finishAttempt = (
  db: Db,
  holder: string,
  id: number,
  next: Pick<WebhookDeliveriesTable, 'status' | 'attempts' | 'next_attempt_at'>,
) =>
  db
    .updateTable('webhook_deliveries')
    .set({ ...next, lease_holder: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_holder', '=', holder)
    .execute();

export const insertAttempt = (db: Db, row: Omit<Database['webhook_attempts'], 'id'>) =>
  db.insertInto('webhook_attempts').values(row).execute();

/** Delivers again from `now` with a fresh day of retries; false for an unknown delivery. */
export const requeueDelivery = async (db: Db, id: number, now: number, giveUpAt: number) => {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, give_up_at: giveUpAt })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

/**
 * What an endpoint missed while it was off, delivered from `now` with a fresh day of retries: every
 * delivery still pending, and those that gave up since `failedSince` (the failure run that turned it
 * off). Answers how many.
 */
export const requeueMissed = async (
  db: Db,
  endpointId: number,
  failedSince: number | null,
  now: number,
  giveUpAt: number,
) => {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, give_up_at: giveUpAt })
    .where('endpoint_id', '=', endpointId)
    .where((eb) =>
      failedSince === null
        ? eb('status', '=', 'pending')
        : eb.or([
            eb('status', '=', 'pending'),
            eb.and([eb('status', '=', 'failed'), eb('created_at', '>=', failedSince)]),
          ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
};

export const findDelivery = (db: Db, id: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();

/** An endpoint's deliveries, newest first, with their event's type. */
export const endpointDeliveries = (db: Db, endpointId: number, before: number | undefined, limit: number) => {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.event_id',
      'v.type',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.created_at',
    ])
    .where('d.endpoint_id', '=', endpointId);
  if (before !== undefined) query = query.where('d.id', '<', before);
  return query.orderBy('d.id', 'desc').limit(limit).execute();
};

/** Attempts of some deliveries, newest first. */
export const deliveryAttempts = (db: Db, deliveryIds: number[]) =>
  deliveryIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', 'in', deliveryIds)
        .orderBy('id', 'desc')
        .execute();

/**
 * Deletes the deliveries waiting for the endpoint `endpointId` created before `before`, with their
 * attempts, while the endpoint is off (a batch at a time, by `webhook_deliveries_endpoint`: its
 * oldest first); answers how many.
 */
export const dropWaitingDeliveries = async (db: Db, endpointId: number, before: number) => {
  let dropped = 0;
  for (;;) {
    const ids = (
      await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .where('created_at', '<', before)
        .orderBy('id')
        .limit(BATCH)
        .execute()
    ).map((row) => Number(row.id));
    if (ids.length === 0) return dropped;
    const deleted = await db.transaction().execute(async (tx) => {
      // Still off? The no-op update holds the endpoint's row (PostgreSQL), so turning it on (which
      // sends what it missed, requeueMissed) waits for this batch instead of racing it.
      const off = await tx
        .updateTable('webhook_endpoints')
        .set({ enabled: 0 })
        .where('id', '=', endpointId)
        .where('enabled', '=', 0)
        .executeTakeFirst();
      if (Number(off.numUpdatedRows) === 0) return undefined;
      await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).execute();
      const result = await tx
        .deleteFrom('webhook_deliveries')
        .where('id', 'in', ids)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
    if (deleted === undefined) return dropped;
    dropped += deleted;
    if (ids.length < BATCH) return dropped;
  }
};

/**
 * The log's retention: attempts older than `before`, finished deliveries created before it, and
 * events no delivery refers to any more. A delivery still being retried keeps its event.
 */
export const deleteWebhookLogBefore = async (db: Db, before: number) => {
  const attempts = await db.deleteFrom('webhook_attempts').where('at', '<', before).executeTakeFirst();
  const deliveries = await db
    .deleteFrom('webhook_deliveries')
    .where('created_at', '<', before)
    .where('status', '!=', 'pending')
    .executeTakeFirst();
  const events = await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_deliveries').select('id').whereRef('event_id', '=', 'webhook_events.id'))),
    )
    .executeTakeFirst();
  return {
    webhook_attempts: Number(attempts.numDeletedRows),
    webhook_deliveries: Number(deliveries.numDeletedRows),
    webhook_events: Number(events.numDeletedRows),
  };
};
