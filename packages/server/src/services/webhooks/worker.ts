/**
 * Delivers webhooks: a worker in each server process claims due deliveries under a lease, posts
 * them signed, logs each attempt, and schedules the next one with exponential back-off and jitter
 * until a day after the event; then the delivery is failed. It wakes when this process records an
 * event and otherwise polls (WEBHOOK_POLL_MS), which is how it sees other processes' events.
 * Times come from the context's clock, so tests move through the back-off without waiting.
 */
import { HOUR_MS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { recordAudit } from '../../store/admin/admin.ts';
import { type ClaimedDelivery, claimDue, finishAttempt, insertAttempt } from '../../store/webhooks/deliveries.ts';
import { recordEndpointFailure, recordEndpointSuccess, setEndpointEnabled } from '../../store/webhooks/endpoints.ts';
import { type LeaseWorker, startLeaseWorker } from '../platform/lease-worker.ts';
import { unseal } from '../security/sealed-values.ts';
import { onNewEvents } from './events.ts';
import { postWebhook } from './sender.ts';
import { signWebhook } from './signing.ts';

const BATCH = 20;
const FIRST_RETRY_MS = 5_000;
const LONGEST_WAIT_MS = HOUR_MS;
/** Who the audit log names for what the server did by itself. */
export const SYSTEM_OPERATOR = 0;

/** The wait before attempt `attempts + 1`: doubling from 5 s, at most an hour, ±20% so retries spread. */
export const backoffMs = (attempts: number, random = Math.random) =>
  Math.round(Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), LONGEST_WAIT_MS) * (0.8 + 0.4 * random()));

export const secretName = (endpointId: number) => `webhook:${endpointId}`;

/**
 * Turns an endpoint off once it has been failing for WEBHOOK_DISABLE_AFTER (a day) without a
 * success: by time, never by the number of attempts (a burst of events during a short outage makes
 * many attempts in seconds). Its events keep being written while it is off, and are delivered when
 * it is enabled again. A delivery that has just given up (`gaveUpAt`: the end of its retries) counts
 * as failing until then: its last attempt may come a little before, and nothing would be tried after.
 */
const disableIfPersistent = async (ctx: Context, endpointId: number, now: number, gaveUpAt: number | undefined) => {
  const run = await recordEndpointFailure(ctx.db, endpointId, now);
  if (run === undefined || run.enabled !== 1) return;
  const since = run.failing_since ?? now;
  if (Math.max(now, gaveUpAt ?? now) - since < ctx.config.webhooks.disableAfterMs) return;
  const reason = `every delivery failed since ${new Date(since).toISOString()} (${run.consecutive_failures} attempts in a row)`;
  // Only the process whose update turned it off records it, so the notice appears once.
  if (!(await setEndpointEnabled(ctx.db, endpointId, false, reason, { onlyIfEnabled: true }))) return;
  await recordAudit(ctx.db, ctx.keys.audit, {
    operator_id: SYSTEM_OPERATOR,
    action: 'webhook.disable',
    target: `webhook:${endpointId}`,
    detail: reason,
    at: now,
  });
  ctx.logger.warn({ endpointId }, `webhooks: endpoint ${endpointId} turned off (${reason})`);
};

const attempt = async (ctx: Context, holder: string, delivery: ClaimedDelivery) => {
  const sentAt = ctx.now();
  const secret = unseal(ctx.keys.sealing, delivery.secret_sealed, secretName(delivery.endpoint_id));
  const result =
    secret === undefined
      ? {
          ok: false,
          status: 0,
          error: 'the signing secret does not open (the keyring was reset): add the endpoint again',
          durationMs: 0,
        }
      : await postWebhook({
          url: delivery.url,
          headers: { ...signWebhook(secret, delivery.event_id, Math.floor(sentAt / 1000), delivery.payload) },
          body: delivery.payload,
          timeoutMs: ctx.config.webhooks.timeoutMs,
          allowPrivate: ctx.config.webhooks.allowPrivate,
        });
  const now = ctx.now();
  const attempts = delivery.attempts + 1;
  const next = now + backoffMs(attempts);
  await insertAttempt(ctx.db, {
    delivery_id: delivery.id,
    at: sentAt,
    duration_ms: result.durationMs,
    response_status: result.status,
    error: result.error,
    ok: result.ok ? 1 : 0,
  });
  const failed = !result.ok && next > delivery.give_up_at;
  await finishAttempt(ctx.db, holder, delivery.id, {
    status: result.ok ? 'delivered' : failed ? 'failed' : 'pending',
    attempts,
    next_attempt_at: result.ok ? now : next,
  });
  if (result.ok) await recordEndpointSuccess(ctx.db, delivery.endpoint_id);
  else await disableIfPersistent(ctx, delivery.endpoint_id, now, failed ? delivery.give_up_at : undefined);
};

export type WebhookWorker = LeaseWorker;

export const startWebhookWorker = (ctx: Context): WebhookWorker =>
  startLeaseWorker(ctx, {
    name: 'webhooks',
    pollMs: ctx.config.webhooks.pollMs,
    leaseMs: ctx.config.webhooks.timeoutMs + 60_000,
    batch: BATCH,
    claim: (lease, limit) => claimDue(ctx.store, lease, limit),
    attempt: (holder, delivery) => attempt(ctx, holder, delivery),
    wake: (run) => onNewEvents(ctx.store, run),
  });
