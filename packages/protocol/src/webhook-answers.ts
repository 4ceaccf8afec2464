/** What the webhook calls answer (webhook-routes.ts exports their types). */
import { boolean, integer, list, nullable, object, oneOf, text } from './answer-schema.ts';

/** Every event a webhook endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.blocked',
  'user.deletion_scheduled',
  'user.deletion_cancelled',
  'user.deleted',
  'session.started',
  'session.ended',
  'password.changed',
  'phone.changed',
  'agreement.signed',
  'class.changed',
  'class.membership.changed',
  'pupils.created',
  'minor.consent.changed',
  'minor.settings.changed',
] as const;

const endpointFields = {
  id: integer(),
  /** The product whose users' events it receives, or `*` for every product. */
  product: text(),
  url: text(),
  events: list(oneOf(...WEBHOOK_EVENT_TYPES)),
  enabled: boolean(),
  /** Why the server turned it off (persistent failure); empty when an operator did, or when on. */
  disabled_reason: text(),
  consecutive_failures: integer(),
  created_at: integer(),
};

export const webhookEndpointAnswer = object(endpointFields);

/** The answer to adding an endpoint: its signing secret, shown this once. */
export const newWebhookEndpointAnswer = object({ ...endpointFields, secret: text() });

/** `response_status` is 0 when no answer came (refused, timed out). */
export const webhookAttemptAnswer = object({
  at: integer(),
  duration_ms: integer(),
  response_status: integer(),
  error: text(),
  ok: boolean(),
});

/** `event_id` is the event's `webhook-id`, the same on every attempt; `type` may be one a newer server sends. */
export const webhookDeliveryAnswer = object({
  id: integer(),
  endpoint_id: integer(),
  event_id: text(),
  type: text(),
  status: oneOf('pending', 'delivered', 'failed'),
  attempts: integer(),
  next_attempt_at: integer(),
  created_at: integer(),
  last_attempt: nullable(webhookAttemptAnswer),
});
