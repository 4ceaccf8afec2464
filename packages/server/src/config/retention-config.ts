/**
 * How long the hourly sweep (services/platform/housekeeping.ts) keeps records that a person or an
 * operator may still need to look back on, read by `loadConfig` (config.ts) with the same rules. Each
 * is a platform's retention choice; docs/operators.md's retention table gives every kept row its time.
 *
 * AUDIT_RETENTION_DAYS  operators' audit rows (1095; 180 at least).
 * ACCESS_LOG_RETENTION_DAYS  the reads of people's records in the access log, the staff-read log (1095;
 *                     180 at least).
 * SECURITY_EVENT_RETENTION_DAYS  the security events kept per account: sign-ins, failures, lockouts, the
 *                     network log of who came in from where (365; 180 at least).
 *
 * The three are network logs in the sense of the Cybersecurity Law of the PRC, art. 21 ("keep network
 * logs for no less than six months"): a value under 180 days stops the server at start, naming the law.
 * CONSENT_EVIDENCE_RETENTION_YEARS  guardians' consent decisions after the child's account ends (3; 1–100).
 * WEBHOOK_DISABLED_KEEP_DAYS  deliveries waiting for a webhook endpoint that is off (30; 1–3650): older
 *                     ones are dropped, an audit row per endpoint naming how many, and turning it on
 *                     again sends only what it missed within them.
 */
import type { Readers } from './readers.ts';

export interface RetentionConfig {
  /** Days operators' audit rows are kept (hourly sweep). */
  auditRetentionDays: number;
  /** Days the reads of pupils' records are kept in the access log (hourly sweep). */
  accessLogRetentionDays: number;
  /** Days the security events kept per account are kept (hourly sweep). */
  securityEventRetentionDays: number;
  /** Years guardians' consent decisions are kept after the child's account ends (hourly sweep). */
  consentEvidenceRetentionYears: number;
  /** Days deliveries wait for a webhook endpoint that is off before the hourly sweep drops them. */
  webhookDisabledKeepDays: number;
}

/** Days a network log must be kept at least: six months (Cybersecurity Law of the PRC, art. 21). */
export const NETWORK_LOG_FLOOR_DAYS = 180;

/** A network log's retention: under the legal floor is a start-up problem that names the law and the fix. */
const networkLogDays = ({ int }: Readers, problems: string[], name: string, fallback: number): number => {
  const days = int(name, fallback, 1, 36_500);
  if (days >= NETWORK_LOG_FLOOR_DAYS) return days;
  problems.push(
    `${name}=${days} keeps network logs under six months: the Cybersecurity Law of the PRC (art. 21) requires at least ${NETWORK_LOG_FLOOR_DAYS} days. Fix: set ${name}=${NETWORK_LOG_FLOOR_DAYS} or more (default ${fallback}), or unset it.`,
  );
  return fallback;
};

export const readRetentionConfig = (read: Readers, problems: string[]): RetentionConfig => ({
  auditRetentionDays: networkLogDays(read, problems, 'AUDIT_RETENTION_DAYS', 3 * 365),
  accessLogRetentionDays: networkLogDays(read, problems, 'ACCESS_LOG_RETENTION_DAYS', 3 * 365),
  securityEventRetentionDays: networkLogDays(read, problems, 'SECURITY_EVENT_RETENTION_DAYS', 365),
  consentEvidenceRetentionYears: read.int('CONSENT_EVIDENCE_RETENTION_YEARS', 3, 1, 100),
  webhookDisabledKeepDays: read.int('WEBHOOK_DISABLED_KEEP_DAYS', 30, 1, 3650),
});
