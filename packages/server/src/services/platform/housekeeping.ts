/**
 * The server's hourly sweep, run once at start and every hour after: children's records stored before
 * they were sealed, sealed in place (services/security/record-keys.ts); accounts whose deletion grace
 * period ended (erased, services/account/deletion.ts), usage events and monitor beacons past
 * USAGE_RETENTION_DAYS, and account rows nothing can use any more — expired refresh tokens (every
 * refresh adds one), tickets, codes and rate-limit windows, sessions ended more than REFRESH_TOKEN_TTL
 * ago (the console shows them until then) and sessions never ended that are past their absolute age
 * and their tokens' life (`unusableSince`), each with its school sign-in, the school sign-ins of
 * sessions ended lately, login cards ended more than a month ago, dev-outbox messages older than a
 * day, audit rows past AUDIT_RETENTION_DAYS, access-log rows past ACCESS_LOG_RETENTION_DAYS, security
 * events past SECURITY_EVENT_RETENTION_DAYS, consent records CONSENT_EVIDENCE_RETENTION_YEARS after the
 * child's account ended, data-export zips whose link expired (DATA_EXPORT_LINK_HOURS), webhook
 * deliveries that waited WEBHOOK_DISABLED_KEEP_DAYS for an endpoint that is off (audited), the webhook
 * log after 30 days, accounts under 14 no guardian consented to within EDU_CONSENT_PENDING_DAYS,
 * roster import jobs (their rows, names and previews) uploaded more than EDU_ROSTER_JOB_HOURS ago,
 * confirmed or not, and approves the guardian links nobody decided within EDU_GUARDIAN_WAIT_DAYS (the
 * guardians are told); it also syncs the schools' address books whose scheduled sync is due; then the events store settles the dashboards' answers for what stopped
 * changing (ClickHouse). Each sweep's counts are logged and counted in `edupass_sweep_rows_total`.
 * Rotated refresh tokens stay until they expire: presenting one again is how a stolen copy is
 * caught (services/sessions/tokens.ts). Only the server sweeps; the CLI never does. Of several server
 * processes on one database, one sweeps at a time; every delete goes in batches.
 */
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { sweepUpstreamTokens } from '../../store/edu/federation/connectors.ts';
import { sweepSamlRequests } from '../../store/edu/federation/saml.ts';
import { deleteRosterJobsBefore } from '../../store/edu/roster/roster.ts';
import { deleteEndedBadges } from '../../store/edu/school/pupils.ts';
import { deleteExpiredAccountRows } from '../../store/expired-rows.ts';
import { deleteExpiredModels } from '../../store/identity/oidc-models.ts';
import { deleteSweptSessions } from '../../store/sessions/session-sweep.ts';
import { withSweepLock } from '../../store/sweep-lock.ts';
import { deleteWebhookLogBefore } from '../../store/webhooks/deliveries.ts';
import { eraseDueAccounts } from '../account/deletion.ts';
import { dropOldSegments } from '../admin/audit-verify.ts';
import { deleteUnconfirmedChildren } from '../edu/family/consent.ts';
import { settleWaitedRequests } from '../edu/family/guardian-requests.ts';
import { syncDueAddressBooks } from '../edu/roster/address-books.ts';
import { sealRecordsInPlace } from '../security/record-keys.ts';
import { dropWaitingForDisabled } from '../webhooks/webhooks.ts';

const OUTBOX_KEEP_MS = DAY_MS;
/** A year of retention: 365 days (the sweep is hourly; a leap day is within its slack). */
const YEAR_MS = 365 * DAY_MS;
const WEBHOOK_LOG_KEEP_MS = 30 * DAY_MS;
/**
 * How long an ended login card's badge is kept. An ended card signs nobody in and no screen lists it
 * (the pupil's cards are the live ones; the printing is in the audit log); for a month the pupil's copy
 * of their data still says when it ended, and ending it again answers that it is ended.
 */
const ENDED_CARD_KEEP_MS = 30 * DAY_MS;
/**
 * School sign-ins of sessions ended within this go at each sweep: an hourly sweep, and one missed
 * (its holder died and the lease lapsed) fall within it. One of a session ended before goes with the
 * session (REFRESH_TOKEN_TTL after its end).
 */
const LATELY_ENDED_MS = 3 * HOUR_MS;

/**
 * Sessions never ended that began before this can no longer be used and are deleted: past
 * SESSION_MAX_AGE a refresh is refused, so its last access token ran out ACCESS_TOKEN_TTL after that,
 * and the session token of its sign-in SESSION_TOKEN_TTL after the start; then, as an ended session,
 * it stays REFRESH_TOKEN_TTL for the console's list.
 */
const unusableSince = ({ config }: Context, now: number) =>
  now -
  config.refreshTokenTtlSeconds * 1000 -
  Math.max(config.sessionMaxAgeSeconds + config.accessTokenTtlSeconds, config.sessionTokenTtlSeconds) * 1000;

/**
 * One pass of every sweep, unless another process is sweeping (store/sweep-lock.ts); one that fails
 * is logged and the others still run. Answers whether this process swept.
 */
export const sweepOnce = async (ctx: Context, signal?: AbortSignal): Promise<boolean> => {
  const now = ctx.now();
  const swept = await withSweepLock(ctx.store, now, async () => {
    const timer = ctx.metrics.sweepDuration.startTimer();
    try {
      return await sweepAll(ctx, now, signal);
    } finally {
      timer();
    }
  }).catch((error: unknown) => {
    ctx.logger.error({ err: error }, 'housekeeping: cannot take the sweep lock');
    return undefined;
  });
  return swept !== undefined;
};

const sweepAll = async (ctx: Context, now: number, signal?: AbortSignal): Promise<true> => {
  const sweeps: [name: string, run: () => Promise<Record<string, number>>][] = [
    // A database from before sealing, or after a rotation of the record keys (stops with the server).
    ["children's records sealed in place", () => sealRecordsInPlace(ctx.db, ctx.logger, signal)],
    // First: an account erased here takes its webhook log and usage events with it.
    ['accounts past their deletion grace', () => eraseDueAccounts(ctx, now)],
    // Before the log: the events of deliveries dropped here go with it.
    ['webhook deliveries waiting for an endpoint that is off', () => dropWaitingForDisabled(ctx, now)],
    ['webhook log', () => deleteWebhookLogBefore(ctx.db, now - WEBHOOK_LOG_KEEP_MS)],
    ['usage retention', () => ctx.events.deleteBefore(now - ctx.config.usageRetentionDays * DAY_MS)],
    ['usage settled answers', () => ctx.events.settle(now)],
    [
      // Whole segments of their chains, each keeping its anchor (admin/audit-verify.ts).
      'audit and access-log segments past their retention',
      () =>
        dropOldSegments(ctx, {
          admin_audit: now - ctx.config.auditRetentionDays * DAY_MS,
          edu_access_log: now - ctx.config.accessLogRetentionDays * DAY_MS,
        }),
    ],
    [
      'expired account rows',
      () =>
        deleteExpiredAccountRows(ctx.db, {
          now,
          outboxBefore: now - OUTBOX_KEEP_MS,
          securityEventsBefore: now - ctx.config.securityEventRetentionDays * DAY_MS,
          consentEvidenceBefore: now - ctx.config.consentEvidenceRetentionYears * YEAR_MS,
        }),
    ],
    [
      'sessions nothing can use any more, and school sign-ins of ended sessions',
      () =>
        deleteSweptSessions(ctx.db, {
          endedBefore: now - ctx.config.refreshTokenTtlSeconds * 1000,
          begunBefore: unusableSince(ctx, now),
          endedSince: now - LATELY_ENDED_MS,
        }),
    ],
    ['ended login cards', async () => ({ endedCards: await deleteEndedBadges(ctx.db, now - ENDED_CARD_KEEP_MS) })],
    ['expired identity provider rows', async () => ({ oidcModels: await deleteExpiredModels(ctx.db, now) })],
    ['children left without consent', () => deleteUnconfirmedChildren(ctx, now)],
    ['guardian links nobody decided within EDU_GUARDIAN_WAIT_DAYS', () => settleWaitedRequests(ctx)],
    ['answered or expired SAML requests', () => sweepSamlRequests(ctx.db, now)],
    ['used upstream tokens past their time', () => sweepUpstreamTokens(ctx.db, now)],
    ["schools' address books due for their scheduled sync", () => syncDueAddressBooks(ctx, now)],
    [
      'roster import jobs',
      async () => ({ rosterJobs: await deleteRosterJobsBefore(ctx.db, now - ctx.config.eduRosterJobHours * HOUR_MS) }),
    ],
  ];
  for (const [name, run] of sweeps) {
    try {
      const deleted = await run();
      for (const [rows, count] of Object.entries(deleted)) ctx.metrics.sweepRows.inc({ rows }, count);
      if (Object.values(deleted).some((count) => count > 0)) ctx.logger.info({ deleted }, `housekeeping: ${name}`);
    } catch (error) {
      ctx.logger.error({ err: error }, `housekeeping: ${name} failed`);
    }
  }
  return true;
};

/** Sweeps now and every hour, one sweep at a time; answers the stopper, which waits for a sweep under way. */
export const startHousekeeping = (ctx: Context): (() => Promise<void>) => {
  const stopping = new AbortController();
  let sweeping = sweepOnce(ctx, stopping.signal);
  const timer = setInterval(() => {
    sweeping = sweeping.then(() => sweepOnce(ctx, stopping.signal));
  }, HOUR_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    stopping.abort();
    await sweeping;
  };
};
