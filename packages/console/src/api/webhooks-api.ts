/** The console's webhook calls, typed and parsed. */
import {
  adminRoutes,
  type NewWebhookEndpoint,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@edupass/protocol';
import { adminCall } from './admin-call.ts';
import { bool, items, list, num, record, str } from './parse.ts';

const endpointOf = (p: Record<string, unknown>): WebhookEndpoint => ({
  id: num(p.id),
  product: str(p.product),
  url: str(p.url),
  events: list(p.events).map((e) => str(e) as WebhookEventType),
  enabled: bool(p.enabled),
  disabled_reason: str(p.disabled_reason),
  consecutive_failures: num(p.consecutive_failures),
  created_at: num(p.created_at),
});

const attemptOf = (p: Record<string, unknown>): WebhookAttempt => ({
  at: num(p.at),
  duration_ms: num(p.duration_ms),
  response_status: num(p.response_status),
  error: str(p.error),
  ok: bool(p.ok),
});

export const listWebhooks = async (): Promise<WebhookEndpoint[]> =>
  items(await adminCall(adminRoutes.listWebhooks), endpointOf, 'webhook');

export const addWebhook = async (product: string, url: string, events: string[]): Promise<NewWebhookEndpoint> => {
  const answer = record(await adminCall(adminRoutes.addWebhook, { body: { product, url, events } }));
  return { ...endpointOf(answer), secret: str(answer.secret) };
};

export const removeWebhook = (id: number) => adminCall(adminRoutes.removeWebhook, { params: { id } });

export const setWebhookEnabled = (id: number, enabled: boolean) =>
  adminCall(adminRoutes.setWebhookEnabled, { params: { id }, body: { enabled } });

export const listDeliveries = async (endpointId: number): Promise<WebhookDelivery[]> =>
  items(
    await adminCall(adminRoutes.listWebhookDeliveries, { params: { id: endpointId }, query: { limit: 50 } }),
    (p) => ({
      id: num(p.id),
      endpoint_id: num(p.endpoint_id),
      event_id: str(p.event_id),
      type: str(p.type),
      status: str(p.status) as WebhookDeliveryStatus,
      attempts: num(p.attempts),
      next_attempt_at: num(p.next_attempt_at),
      created_at: num(p.created_at),
      last_attempt: p.last_attempt === null || p.last_attempt === undefined ? null : attemptOf(record(p.last_attempt)),
    }),
    'delivery',
  );

export const resendDelivery = (deliveryId: number) =>
  adminCall(adminRoutes.resendWebhookDelivery, { params: { id: deliveryId } });
