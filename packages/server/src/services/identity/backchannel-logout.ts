/**
 * OpenID Connect Back-Channel Logout 1.0: when an application's sign-in ends with the EduPass session
 * it stood on (sign-out, password change, block, deletion, an operator's "end sessions", a school's
 * password reset, signing out through an application), an application that registered a
 * `backchannel_logout_uri` is sent a logout token. The logouts are written in the transaction that
 * ended the sessions and posted by a worker: at once after the commit, retried with back-off for a
 * day when the application does not answer 2xx, through the same guards as webhook deliveries (no
 * redirects, no private addresses unless WEBHOOK_ALLOW_PRIVATE). The token is the provider's own
 * (`typ: logout+jwt`, signed as the application's ID tokens are), with `sub`, `sid` and the event.
 */
import { randomUUID } from 'node:crypto';
import type { ClientModel, Provider } from 'oidc-provider';
import { LOGOUT_EVENT } from '../../adapters/oidc-client.ts';
import type { Context } from '../../context.ts';
import { applicationsWithBackchannelLogout } from '../../store/identity/applications.ts';
import {
  type ClaimedLogout,
  claimDueLogouts,
  insertLogouts,
  type LogoutToSend,
  removeLogout,
  retryLogoutAt,
} from '../../store/identity/backchannel-logouts.ts';
import { type LeaseWorker, startLeaseWorker } from '../platform/lease-worker.ts';
import { onNewEvents, RETRY_FOR_MS } from '../webhooks/events.ts';
import { postWebhook } from '../webhooks/sender.ts';
import { backoffMs } from '../webhooks/worker.ts';

const BATCH = 20;

/**
 * Writes the logouts of ended sign-ins through `ctx.db` (the transaction's): only for applications
 * with a back-channel URI, and only sign-ins that told the application a `sid`.
 */
export const queueBackchannelLogouts = async (
  ctx: Pick<Context, 'db' | 'now'>,
  ended: { clientId: string; accountId: string; sid: string | undefined }[],
) => {
  const withSid = ended.filter((e): e is { clientId: string; accountId: string; sid: string } => e.sid !== undefined);
  if (withSid.length === 0) return;
  const listening = new Set(
    await applicationsWithBackchannelLogout(ctx.db, [...new Set(withSid.map((e) => e.clientId))]),
  );
  const logouts: LogoutToSend[] = withSid
    .filter((e) => listening.has(e.clientId))
    .map((e) => ({ client_id: e.clientId, account_id: e.accountId, sid: e.sid }));
  const now = ctx.now();
  await insertLogouts(ctx.db, logouts, now, now + RETRY_FOR_MS);
};

/** The provider's logout token for `client` (its ID-token algorithm and key). */
const logoutToken = async (provider: Provider, client: ClientModel, logout: ClaimedLogout) => {
  const token = new provider.IdToken({ sub: logout.account_id }, { client, ctx: undefined });
  token.mask = { sub: null };
  token.set('events', { [LOGOUT_EVENT]: {} });
  token.set('jti', randomUUID());
  token.set('sid', logout.sid);
  return token.issue({ use: 'logout' });
};

const attempt = async (ctx: Context, provider: () => Promise<Provider>, holder: string, logout: ClaimedLogout) => {
  const current = await provider();
  const client = await current.Client.find(logout.client_id);
  const uri = client?.backchannelLogoutUri;
  // The application is gone, or no longer listens: nothing to tell.
  if (client === undefined || typeof uri !== 'string') return removeLogout(ctx.db, holder, logout.id);
  const result = await postWebhook({
    url: uri,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ logout_token: await logoutToken(current, client, logout) }).toString(),
    timeoutMs: ctx.config.webhooks.timeoutMs,
    allowPrivate: ctx.config.webhooks.allowPrivate,
  });
  const attempts = logout.attempts + 1;
  const next = ctx.now() + backoffMs(attempts);
  if (result.ok || next > logout.give_up_at) {
    if (!result.ok) ctx.logger.warn({ client: logout.client_id, error: result.error }, 'back-channel logout given up');
    return removeLogout(ctx.db, holder, logout.id);
  }
  return retryLogoutAt(ctx.db, holder, logout.id, attempts, next);
};

/** The worker posting logout tokens, woken after a commit that queued one and polling as webhooks do. */
export const startBackchannelLogoutWorker = (ctx: Context, provider: () => Promise<Provider>): LeaseWorker =>
  startLeaseWorker(ctx, {
    name: 'back-channel logout',
    pollMs: ctx.config.webhooks.pollMs,
    leaseMs: ctx.config.webhooks.timeoutMs + 60_000,
    batch: BATCH,
    claim: (lease, limit) => claimDueLogouts(ctx.store, lease, limit),
    attempt: async (holder, logout) => {
      await attempt(ctx, provider, holder, logout);
    },
    wake: (run) => onNewEvents(ctx.store, run),
  });
