/**
 * Webhooks: endpoints per product that receive signed account events (Standard Webhooks), the
 * delivery log with its attempts, and resending. Operators only; spread into `adminRoutes`.
 */
import { type Answer, list, NO_CONTENT } from './answer-schema.ts';
import { operatorRoute as operator } from './operator-route.ts';
import { int, opt, s } from './route-fields.ts';
import {
  newWebhookEndpointAnswer,
  WEBHOOK_EVENT_TYPES,
  webhookAttemptAnswer,
  webhookDeliveryAnswer,
  webhookEndpointAnswer,
} from './webhook-answers.ts';

export { WEBHOOK_EVENT_TYPES };
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The body of every delivery. */
export interface WebhookPayload {
  type: WebhookEventType;
  /** ISO 8601, when the change happened. Deliveries may arrive in another order: order by this. */
  timestamp: string;
  /**
   * `sequence`: the user's event number, increasing with each of their events (committed in that
   * order); a receiver keeps the highest it applied and ignores anything lower. Gaps are events of
   * types the endpoint does not subscribe to.
   */
  data: { user_id: number; product: string; sequence: number } & Record<string, unknown>;
}

export type WebhookEndpoint = Answer<typeof webhookEndpointAnswer>;
/** The answer to adding an endpoint: its signing secret, shown this once. */
export type NewWebhookEndpoint = Answer<typeof newWebhookEndpointAnswer>;
export type WebhookDeliveryStatus = WebhookDelivery['status'];
export type WebhookAttempt = Answer<typeof webhookAttemptAnswer>;
export type WebhookDelivery = Answer<typeof webhookDeliveryAnswer>;

const endpointIdParam = { id: int() } as const;

export const webhookRoutes = {
  listWebhooks: operator('GET', 'webhooks', 'Webhook endpoints (never their secrets)', list(webhookEndpointAnswer)),
  addWebhook: operator(
    'POST',
    'webhooks',
    'Add a webhook endpoint; its signing secret is answered this once',
    newWebhookEndpointAnswer,
    { body: { product: s(64), url: s(2048), events: { type: 'string[]', required: true, maxLength: 20 } } },
  ),
  removeWebhook: operator('POST', 'webhooks/:id/remove', 'Remove a webhook endpoint and its delivery log', NO_CONTENT, {
    params: endpointIdParam,
  }),
  setWebhookEnabled: operator('POST', 'webhooks/:id/enabled', 'Turn a webhook endpoint on or off', NO_CONTENT, {
    params: endpointIdParam,
    body: { enabled: { type: 'boolean', required: true } },
  }),
  listWebhookDeliveries: operator(
    'GET',
    'webhooks/:id/deliveries',
    'Deliveries of an endpoint, newest first, with their last attempt; `before` a delivery id pages back',
    list(webhookDeliveryAnswer),
    { params: endpointIdParam, query: { limit: opt(int()), before: opt(int()) } },
  ),
  listWebhookAttempts: operator(
    'GET',
    'webhooks/deliveries/:id/attempts',
    'Every attempt of one delivery',
    list(webhookAttemptAnswer),
    { params: endpointIdParam },
  ),
  resendWebhookDelivery: operator(
    'POST',
    'webhooks/deliveries/:id/resend',
    'Deliver an event again (same webhook-id) from now on, whatever became of it',
    NO_CONTENT,
    { params: endpointIdParam },
  ),
} as const;
