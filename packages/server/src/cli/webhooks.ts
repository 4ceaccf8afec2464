/**
 * `edupass webhooks add|list|deliveries|enable|disable|remove|resend`: the console's webhook calls
 * from the command line (recorded in the audit log as done by operator 0, the command line).
 */
import { WEBHOOK_EVENT_TYPES } from '@edupass/protocol';
import type { Context } from '../context.ts';
import {
  addWebhook,
  listWebhooks,
  removeWebhook,
  resendDelivery,
  setWebhookEnabled,
  webhookDeliveries,
} from '../services/webhooks/webhooks.ts';

const COMMAND_LINE = 0;

export const WEBHOOKS_USAGE = `  webhooks add <product|*> <url> [--events a,b]  add an endpoint (default: every event); prints its secret once
  webhooks list                            endpoints, their events and state
  webhooks deliveries <id> [count]         an endpoint's latest deliveries (50), newest first, with their last attempt
  webhooks enable <id>                     turn an endpoint on; it is sent what it missed while off
  webhooks disable <id>                    turn an endpoint off (its events are kept for it)
  webhooks remove <id>                     remove an endpoint and its delivery log
  webhooks resend <delivery-id>            deliver an event again (same webhook-id)`;

const idOf = (raw: string | undefined) => {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`"${raw ?? ''}" is not an id.`);
  return id;
};

/** Runs one webhooks subcommand; answers the lines to print, or undefined for an unknown one. */
export const webhooksCommand = async (
  ctx: Context,
  args: (string | undefined)[],
  events: string | undefined,
): Promise<string[] | undefined> => {
  const [sub, first, second] = args;
  if (sub === 'add' && first && second) {
    const chosen = events === undefined ? [...WEBHOOK_EVENT_TYPES] : events.split(',').map((e) => e.trim());
    const endpoint = await addWebhook(ctx, COMMAND_LINE, { product: first, url: second, events: chosen });
    return [
      `Added webhook ${endpoint.id} for ${endpoint.product}: ${endpoint.url}`,
      `Events: ${endpoint.events.join(', ')}`,
      `Signing secret (shown this once): ${endpoint.secret}`,
    ];
  }
  if (sub === 'list') {
    const endpoints = await listWebhooks(ctx);
    if (endpoints.length === 0) return ['No webhook endpoints.'];
    return endpoints.map(
      (e) =>
        `${e.id}\t${e.product}\t${e.enabled ? 'on' : `off${e.disabled_reason ? ` (${e.disabled_reason})` : ''}`}\t${e.url}\t${e.events.join(',')}`,
    );
  }
  if (sub === 'deliveries' && first) {
    const rows = await webhookDeliveries(ctx, idOf(first), { limit: second === undefined ? undefined : idOf(second) });
    if (rows.length === 0) return [`No deliveries for webhook ${first}.`];
    return rows.map((d) => {
      const last = d.last_attempt;
      const answer =
        last === null
          ? 'not tried yet'
          : last.ok
            ? `${last.response_status}`
            : `${last.response_status || ''} ${last.error}`.trim();
      return `${d.id}\t${new Date(d.created_at).toISOString()}\t${d.type}\t${d.event_id}\t${d.status}\t${d.attempts} attempts\t${answer}`;
    });
  }
  if ((sub === 'enable' || sub === 'disable') && first) {
    const missed = await setWebhookEnabled(ctx, COMMAND_LINE, idOf(first), sub === 'enable');
    if (sub === 'disable') return [`Webhook ${first} is off; its events are kept for it.`];
    return [
      `Webhook ${first} is on${missed > 0 ? `; ${missed} deliveries it missed will be sent by the running server` : ''}.`,
    ];
  }
  if (sub === 'remove' && first) {
    await removeWebhook(ctx, COMMAND_LINE, idOf(first));
    return [`Removed webhook ${first}.`];
  }
  if (sub === 'resend' && first) {
    await resendDelivery(ctx, COMMAND_LINE, idOf(first));
    return [`Delivery ${first} will be sent again by the running server.`];
  }
  return undefined;
};
