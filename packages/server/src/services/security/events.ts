/**
 * Security events: one structured log line for each thing an attacker does or a defender needs to
 * see (failed sign-ins, locks, captcha failures, refused operator calls, refresh-token reuse,
 * step-up, blocks, operator sign-ins). A log pipeline keys on `security.event`.
 *
 * Identities (phone, e-mail, username) are logged as a keyed hash, so the log can correlate
 * attempts on one identity without holding the identity itself.
 */
import type { Logger } from '../../adapters/delivery.ts';
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
  | 'origin_refused'
  | 'second_factor_failed'
  | 'second_factor_changed'
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
  keys: { codes: Buffer };
}

/** The keyed hash that stands for an identity in security logs (stable per deployment). */
export const identityHash = (deps: SecurityEventDeps, identity: string) =>
  hmac(deps.keys.codes, `security-log:${identity.trim().toLowerCase()}`).slice(0, 16);

export const securityEvent = (deps: SecurityEventDeps, { identity, ...event }: SecurityEvent) =>
  deps.logger.warn(
    { security: { ...event, ...(identity === undefined ? {} : { identity: identityHash(deps, identity) }) } },
    `security: ${event.event}`,
  );
