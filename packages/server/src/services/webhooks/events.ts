/**
 * Account events for webhooks, written as an outbox: in the same transaction as the change they
 * describe, so an event exists exactly when its change was committed. An event is stored once with
 * a delivery for each endpoint of the user's product subscribed to its type, enabled or not (a
 * disabled endpoint gets what it missed when enabled again); with no such endpoint nothing is
 * written. Each event carries the user's next sequence number (`data.sequence`). After the commit this process's worker is woken (other processes
 * find the deliveries on their next poll).
 */
import { randomBytes } from 'node:crypto';
import type { WebhookEventType, WebhookPayload } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import type { Store } from '../../store/db.ts';
import { queuesForWorkers } from '../../store/lease.ts';
import { forgetAfterCommit } from '../../store/settings-cache.ts';
import { insertEvent, nextUserSequence } from '../../store/webhooks/deliveries.ts';
import { endpointsFor } from '../../store/webhooks/endpoints.ts';

/** Deliveries are retried for a day after their event, then marked failed. */
export const RETRY_FOR_MS = 24 * 3_600_000;

export interface AccountEvent {
  type: WebhookEventType;
  userId: number;
  /** The product the event belongs to: the user's (its sign-up product) unless the change names one. */
  product: string;
  /** What changed; never a secret, and a full phone number only when it is the change. */
  data?: Record<string, unknown>;
}

export const subscribes = (events: string, type: string) => events.split(',').includes(type);

const newEventId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** The endpoints of the event's product subscribed to its type (remembered per process: endpointsFor). */
const subscribedTo = async (db: Context['db'], event: AccountEvent) =>
  (await endpointsFor(db, event.product)).filter((e) => subscribes(e.events, event.type));

/** Writes an event through `ctx.db`: call it with the transaction's context (`inTransaction`). */
export const recordEvent = async (ctx: Pick<Context, 'db' | 'now'>, event: AccountEvent): Promise<void> => {
  const endpoints = await subscribedTo(ctx.db, event);
  if (endpoints.length === 0) return;
  const now = ctx.now();
  const sequence = await nextUserSequence(ctx.db, event.userId);
  const payload: WebhookPayload = {
    type: event.type,
    timestamp: new Date(now).toISOString(),
    data: { user_id: event.userId, product: event.product, ...event.data, sequence },
  };
  await insertEvent(
    ctx.db,
    {
      id: newEventId(),
      type: event.type,
      pid: event.product,
      payload: JSON.stringify(payload),
      user_id: event.userId,
      created_at: now,
    },
    endpoints.map((e) => e.id),
    now + RETRY_FOR_MS,
  );
};

const wakers = new WeakMap<Store, Set<() => void>>();

/**
 * The workers of a store (webhook deliveries, back-channel logouts, exports) register how to wake
 * them; what a transaction queued for them (`queuedForWorkers`) then reaches them at once.
 */
export const onNewEvents = (store: Store, wake: () => void) => {
  const set = wakers.get(store) ?? new Set();
  wakers.set(store, set);
  set.add(wake);
  return () => set.delete(wake);
};

/**
 * Runs a change and the events it records in one transaction: `work` gets a context whose `db` is
 * the transaction. Inside one already, it joins it. After a commit that queued rows for a worker,
 * this process's workers are woken. On SQLite the transaction holds the only connection: `work`
 * must reach the database through its `tx` alone (and should not hash passwords).
 */
export const inTransaction = async <T>(ctx: Context, work: (tx: Context) => Promise<T>): Promise<T> => {
  if (ctx.db.isTransaction) return work(ctx);
  let transaction: object | undefined;
  const result = await ctx.db
    .transaction()
    .execute((db) => {
      transaction = db;
      return work({ ...ctx, db });
    })
    .finally(() => {
      // Settings it wrote (settings-cache.ts) are forgotten again, now that others can read them.
      if (transaction !== undefined) forgetAfterCommit(ctx.db, transaction);
    });
  if (transaction !== undefined && queuesForWorkers(transaction)) wakeWorkers(ctx.store);
  return result;
};

/**
 * A change with the event it records (`recordEvent`), in one transaction when an endpoint subscribes
 * to the event; when none does (nothing of the event is written), the change alone, outside any
 * transaction: a change of one statement then needs no BEGIN and COMMIT (a sign-in's session on
 * PostgreSQL: two round trips fewer). `change` must be atomic by itself; its answer is `withEvent`'s.
 */
export const withEvent = async <T>(
  ctx: Context,
  event: AccountEvent,
  change: (db: Context['db']) => Promise<T>,
): Promise<T> => {
  if ((await subscribedTo(ctx.db, event)).length === 0 && !ctx.db.isTransaction) return change(ctx.db);
  return inTransaction(ctx, async (tx) => {
    const changed = await change(tx.db);
    await recordEvent(tx, event);
    return changed;
  });
};

/** Wakes this process's workers of `store`: after rows for them were written outside a transaction. */
export const wakeWorkers = (store: Store) => {
  for (const wake of wakers.get(store) ?? []) wake();
};
