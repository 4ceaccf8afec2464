/**
 * The webhook part of the configuration, read by `loadConfig` (config.ts) with the same rules.
 *
 * WEBHOOK_ALLOW_PRIVATE  deliver to loopback and private addresses too (off: an operator's URL must not
 *                  reach the server's own network; tests and single-machine setups turn it on).
 * WEBHOOK_POLL_MS  how often each server process looks for due deliveries besides being woken by a
 *                  new event (1000). Events written by another process are picked up within this.
 * WEBHOOK_TIMEOUT_MS  time a receiver has to answer one delivery (10000).
 * WEBHOOK_DISABLE_AFTER  seconds an endpoint may fail without a single success before it is turned
 *                  off (86400, a day). Its events keep being written meanwhile and are delivered once
 *                  it is enabled again.
 */
import type { Readers } from './readers.ts';

export interface WebhookConfig {
  allowPrivate: boolean;
  pollMs: number;
  timeoutMs: number;
  disableAfterMs: number;
}

export const readWebhookConfig = ({ bool, int }: Readers): WebhookConfig => ({
  allowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
  pollMs: int('WEBHOOK_POLL_MS', 1000, 10, 3_600_000),
  timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
  disableAfterMs: int('WEBHOOK_DISABLE_AFTER', 86_400, 60, 30 * 86_400) * 1000,
});
