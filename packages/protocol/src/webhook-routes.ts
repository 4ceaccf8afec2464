/**
 * Webhooks: endpoints per product that receive signed account events (Standard Webhooks), the
 * delivery log with its attempts, and resending. Operators only; spread into `adminRoutes`.
 */
import { operator } from './console-routes.ts';
import { int, opt, s } from './route-fields.ts';

/** Every event a webhook endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.blocked',
  'user.deleted',
  'session.started',
  'session.ended',
  'password.changed',
  'phone.changed',
  'agreement.signed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The body of every delivery. */
export interface WebhookPayload {
  type: WebhookEventType;
  /** ISO 8601, when the change happened. */
  timestamp: string;
  data: { user_id: number; product: string } & Record<string, unknown>;
}

export interface WebhookEndpoint {
  id: number;
  /** The product whose users' events it receives, or `*` for every product. */
  product: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** Why the server turned it off (persistent failure); empty when an operator did, or when on. */
  disabled_reason: string;
  consecutive_failures: number;
  created_at: number;
}

/** The answer to adding an endpoint: its signing secret, shown this once. */
export interface NewWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookAttempt {
  at: number;
  duration_ms: number;
  /** The receiver's HTTP status; 0 when none came (refused, timed out). */
  response_status: number;
  error: string;
  ok: boolean;
}

export interface WebhookDelivery {
  id: number;
  endpoint_id: number;
  /** The event's `webhook-id`, the same on every attempt. */
  event_id: string;
  type: WebhookEventType | (string & {});
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  last_attempt: WebhookAttempt | null;
}

const endpointIdParam = { id: int() } as const;

export const webhookRoutes = {
  listWebhooks: operator('GET', 'webhooks', 'Webhook endpoints (never their secrets)', {}),
  addWebhook: operator('POST', 'webhooks', 'Add a webhook endpoint; its signing secret is answered this once', {
    body: { product: s(64), url: s(2048), events: { type: 'string[]', required: true, maxLength: 20 } },
  }),
  removeWebhook: operator('POST', 'webhooks/:id/remove', 'Remove a webhook endpoint and its delivery log', {
    params: endpointIdParam,
    status: 204,
  }),
  setWebhookEnabled: operator('POST', 'webhooks/:id/enabled', 'Turn a webhook endpoint on or off', {
    params: endpointIdParam,
    body: { enabled: { type: 'boolean', required: true } },
    status: 204,
  }),
  listWebhookDeliveries: operator(
    'GET',
    'webhooks/:id/deliveries',
    'Deliveries of an endpoint, newest first, with their last attempt; `before` a delivery id pages back',
    { params: endpointIdParam, query: { limit: opt(int()), before: opt(int()) } },
  ),
  listWebhookAttempts: operator('GET', 'webhooks/deliveries/:id/attempts', 'Every attempt of one delivery', {
    params: endpointIdParam,
  }),
  resendWebhookDelivery: operator(
    'POST',
    'webhooks/deliveries/:id/resend',
    'Deliver an event again (same webhook-id) from now on, whatever became of it',
    { params: endpointIdParam, status: 204 },
  ),
} as const;
