/**
 * What operators do with webhooks (console and CLI), and the hourly sweep of deliveries left waiting for
 * an endpoint that is off; every change is recorded in the audit log.
 */
import {
  DAY_MS,
  type NewWebhookEndpoint,
  WEBHOOK_EVENT_TYPES,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@edupass/protocol';
import type { Selectable } from 'kysely';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { recordAudit } from '../../store/admin/admin.ts';
import type { WebhookAttemptsTable, WebhookEndpointsTable } from '../../store/schema.ts';
import {
  deliveryAttempts,
  dropWaitingDeliveries,
  endpointDeliveries,
  findDelivery,
  requeueDelivery,
  requeueMissed,
} from '../../store/webhooks/deliveries.ts';
import {
  allEndpoints,
  deleteEndpoint,
  disabledEndpointIds,
  findEndpoint,
  insertEndpoint,
  setEndpointEnabled,
  setEndpointSecret,
} from '../../store/webhooks/endpoints.ts';
import { requireProduct } from '../platform/products.ts';
import { seal } from '../security/sealed-values.ts';
import { inTransaction, RETRY_FOR_MS } from './events.ts';
import { newWebhookSecret } from './signing.ts';
import { checkWebhookUrl } from './target.ts';
import { SYSTEM_OPERATOR, secretName } from './worker.ts';

const PAGE_MAX = 200;

const audit = (ctx: Context, operatorId: number, action: string, target: string, detail = '') =>
  recordAudit(ctx.db, ctx.keys.audit, { operator_id: operatorId, action, target, detail, at: ctx.now() });

const isEventType = (name: string): name is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);

const toWire = (row: Selectable<WebhookEndpointsTable>): WebhookEndpoint => ({
  id: row.id,
  product: row.pid,
  url: row.url,
  events: row.events.split(',').filter(isEventType),
  enabled: row.enabled === 1,
  disabled_reason: row.disabled_reason,
  consecutive_failures: row.consecutive_failures,
  created_at: row.created_at,
});

export const listWebhooks = async (ctx: Context): Promise<WebhookEndpoint[]> =>
  (await allEndpoints(ctx.db)).map(toWire);

export interface WebhookInput {
  product: string;
  url: string;
  events: string[];
}

/** Adds an endpoint; its secret is in this answer only (it is kept sealed). */
export const addWebhook = async (
  ctx: Context,
  operatorId: number,
  input: WebhookInput,
): Promise<NewWebhookEndpoint> => {
  if (input.product !== '*') await requireProduct(ctx, input.product);
  const url = checkWebhookUrl(input.url, ctx.config.webhooks.allowPrivate).toString();
  const unknown = input.events.find((name) => !isEventType(name));
  if (unknown !== undefined)
    throw invalidRequest(`Unknown event ${unknown}; one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
  if (input.events.length === 0) throw invalidRequest('events must name at least one event.');
  const secret = newWebhookSecret();
  const row = await inTransaction(ctx, async (tx) => {
    const inserted = await insertEndpoint(tx.db, {
      pid: input.product,
      url,
      events: [...new Set(input.events)].join(','),
      secret_sealed: '',
      created_at: ctx.now(),
    });
    const secret_sealed = seal(ctx.keys.sealing, secret, secretName(inserted.id));
    await setEndpointSecret(tx.db, inserted.id, secret_sealed);
    return inserted;
  });
  await audit(ctx, operatorId, 'webhook.add', `webhook:${row.id}`, `${row.pid} ${url} ${row.events}`);
  return { ...toWire(row), secret };
};

export const removeWebhook = async (ctx: Context, operatorId: number, id: number) => {
  const endpoint = (await findEndpoint(ctx.db, id)) ?? fail('E_2', `No webhook endpoint ${id}.`);
  await deleteEndpoint(ctx.db, id);
  await audit(ctx, operatorId, 'webhook.remove', `webhook:${id}`, endpoint.url);
};

/**
 * Turns an endpoint off or on. Turned on, it is sent what it missed while off (requeueMissed), in
 * the same transaction as the change; answers how many deliveries that was.
 */
export const setWebhookEnabled = async (ctx: Context, operatorId: number, id: number, enabled: boolean) => {
  const endpoint = (await findEndpoint(ctx.db, id)) ?? fail('E_2', `No webhook endpoint ${id}.`);
  const now = ctx.now();
  const missed = await inTransaction(ctx, async (tx) => {
    if (!(await setEndpointEnabled(tx.db, id, enabled))) fail('E_2', `No webhook endpoint ${id}.`);
    if (!enabled || endpoint.enabled === 1) return 0;
    return requeueMissed(tx.db, id, endpoint.failing_since, now, now + RETRY_FOR_MS);
  });
  await audit(
    ctx,
    operatorId,
    enabled ? 'webhook.enable' : 'webhook.disable',
    `webhook:${id}`,
    missed > 0 ? `${missed} missed deliveries resent` : '',
  );
  return missed;
};

/**
 * The hourly sweep: deliveries that waited WEBHOOK_DISABLED_KEEP_DAYS for an endpoint that is off are
 * dropped (turned on again, it is sent only what came within them), with one audit row per endpoint
 * naming how many.
 */
export const dropWaitingForDisabled = async (ctx: Context, now: number) => {
  const keepDays = ctx.config.webhookDisabledKeepDays;
  let dropped = 0;
  for (const id of await disabledEndpointIds(ctx.db)) {
    const count = await dropWaitingDeliveries(ctx.db, id, now - keepDays * DAY_MS);
    if (count === 0) continue;
    dropped += count;
    const detail = `${count} deliveries dropped: they waited more than ${keepDays} days while the endpoint was off`;
    await audit(ctx, SYSTEM_OPERATOR, 'webhook.drop', `webhook:${id}`, detail);
  }
  return { webhookWaitingDropped: dropped };
};

const attemptToWire = (row: Selectable<WebhookAttemptsTable>): WebhookAttempt => ({
  at: row.at,
  duration_ms: row.duration_ms,
  response_status: row.response_status,
  error: row.error,
  ok: row.ok === 1,
});

export const webhookDeliveries = async (
  ctx: Context,
  endpointId: number,
  query: { limit?: number | undefined; before?: number | undefined },
): Promise<WebhookDelivery[]> => {
  (await findEndpoint(ctx.db, endpointId)) ?? fail('E_2', `No webhook endpoint ${endpointId}.`);
  const limit = Math.min(Math.max(query.limit ?? 50, 1), PAGE_MAX);
  const rows = await endpointDeliveries(ctx.db, endpointId, query.before, limit);
  const attempts = await deliveryAttempts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const last = attempts.find((a) => a.delivery_id === row.id);
    return {
      ...row,
      last_attempt: last === undefined ? null : attemptToWire(last),
    };
  });
};

export const webhookAttempts = async (ctx: Context, deliveryId: number): Promise<WebhookAttempt[]> => {
  (await findDelivery(ctx.db, deliveryId)) ?? fail('E_2', `No webhook delivery ${deliveryId}.`);
  return (await deliveryAttempts(ctx.db, [deliveryId])).map(attemptToWire);
};

/** Delivers the event again, same `webhook-id`, with a fresh day of retries. */
export const resendDelivery = async (ctx: Context, operatorId: number, deliveryId: number) => {
  const now = ctx.now();
  const requeued = await inTransaction(ctx, (tx) => requeueDelivery(tx.db, deliveryId, now, now + RETRY_FOR_MS));
  if (!requeued) fail('E_2', `No webhook delivery ${deliveryId}.`);
  await audit(ctx, operatorId, 'webhook.resend', `webhook-delivery:${deliveryId}`);
};
