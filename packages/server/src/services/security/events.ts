/**
 * Security events: one structured log line for each thing an attacker does or a defender needs to
 * see (failed sign-ins, locks, captcha failures, refused operator calls, refresh-token reuse,
 * step-up, blocks, operator sign-ins). A log pipeline keys on `security.event`.
 *
 * Identities (phone, e-mail, username) are logged as a keyed hash, so the log can correlate
 * attempts on one identity without holding the identity itself.
 *
 * An event about an account is also kept in `security_events` (without the identity, and naming no
 * operator), for the person's copy of their data, until SECURITY_EVENT_RETENTION_DAYS.
 */
import type { KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from '../../adapters/delivery.ts';
import { insertSecurityEvent } from '../../store/account/security-events.ts';
import type { Database } from '../../store/schema.ts';
import { hmac } from './hashing.ts';

export type SecurityEventName =
  | 'login_failed'
  | 'login_locked'
  | 'captcha_failed'
  | 'captcha_required'
  | 'forbidden'
  | 'refresh_reuse'
  | 'step_up_passed'
  | 'step_up_failed'
  | 'step_up_required'
  | 'password_changed'
  | 'phone_changed'
  | 'user_blocked'
  | 'operator_sign_in'
  | 'idle_sign_out'
  | 'origin_refused'
  | 'second_factor_failed'
  | 'second_factor_changed'
  | 'account_deletion_scheduled'
  | 'account_deletion_cancelled'
  | 'account_deleted';

export interface SecurityEvent {
  event: SecurityEventName;
  /** The account concerned, when known. */
  userId?: number;
  /** A phone, e-mail or username as typed: logged hashed, never as is. */
  identity?: string;
  ip?: string;
  reason?: string;
}

interface SecurityEventDeps {
  logger: Logger;
  keys: { codes: KeyObject };
  /** Where events about an account are kept (absent: the log only). */
  db?: Kysely<Database>;
  now?: () => number;
}

/** The account is gone with this event: nothing is kept naming it. */
const NOT_KEPT: ReadonlySet<SecurityEventName> = new Set(['account_deleted']);

/** Keeps an event about an account; one that cannot be written is logged, never an error for the caller. */
const keepEvent = (deps: SecurityEventDeps, event: SecurityEvent) => {
  const { db, now } = deps;
  if (db === undefined || now === undefined || event.userId === undefined || NOT_KEPT.has(event.event)) return;
  insertSecurityEvent(db, {
    user_id: event.userId,
    event: event.event,
    // "blocked by operator 12": which operator is the audit log's, not the person's copy.
    reason: (event.reason ?? '').replace(/\boperator \d+/g, 'an operator'),
    ip: event.ip ?? '',
    at: now(),
  }).catch((error: unknown) => deps.logger.warn({ err: error }, 'security event not kept'));
};

/** The keyed hash that stands for an identity in security logs (stable per deployment). */
export const identityHash = (deps: SecurityEventDeps, identity: string) =>
  hmac(deps.keys.codes, `security-log:${identity.trim().toLowerCase()}`).slice(0, 16);

export const securityEvent = (deps: SecurityEventDeps, { identity, ...event }: SecurityEvent) => {
  deps.logger.warn(
    { security: { ...event, ...(identity === undefined ? {} : { identity: identityHash(deps, identity) }) } },
    `security: ${event.event}`,
  );
  keepEvent(deps, event);
};
