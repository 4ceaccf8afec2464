/**
 * How long the hourly sweep (services/platform/housekeeping.ts) keeps records that a person or an
 * operator may still need to look back on, read by `loadConfig` (config.ts) with the same rules. Each
 * is a platform's retention choice; docs/operators.md's retention table gives every kept row its time.
 *
 * AUDIT_RETENTION_DAYS  operators' audit rows (1095; 30 at least).
 * ACCESS_LOG_RETENTION_DAYS  the reads of people's records in the access log (1095; 30 at least).
 * SECURITY_EVENT_RETENTION_DAYS  the security events kept per account (365; 30 at least).
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

export const readRetentionConfig = ({ int }: Readers): RetentionConfig => ({
  auditRetentionDays: int('AUDIT_RETENTION_DAYS', 3 * 365, 30, 36_500),
  accessLogRetentionDays: int('ACCESS_LOG_RETENTION_DAYS', 3 * 365, 30, 36_500),
  securityEventRetentionDays: int('SECURITY_EVENT_RETENTION_DAYS', 365, 30, 36_500),
  consentEvidenceRetentionYears: int('CONSENT_EVIDENCE_RETENTION_YEARS', 3, 1, 100),
  webhookDisabledKeepDays: int('WEBHOOK_DISABLED_KEEP_DAYS', 30, 1, 3650),
});
