/**
 * Deletes account rows that can no longer be used: the hourly sweep of services/platform/housekeeping.ts
 * (sessions and their school sign-ins: sessions/session-sweep.ts).
 */
import type { Kysely } from 'kysely';
import { chinaMonth, sweepPeopleReadBefore } from './admin/report-counters.ts';
import { SWEEP_BATCH as BATCH, inBatches } from './in-batches.ts';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;

export interface ExpiryCutoffs {
  now: number;
  /** Dev-outbox messages sent before this go: the codes in them expired long ago. */
  outboxBefore: number;
  /** Security events kept per account before this go (SECURITY_EVENT_RETENTION_DAYS). */
  securityEventsBefore: number;
  /** Consent records of accounts that ended before this go (CONSENT_EVIDENCE_RETENTION_YEARS). */
  consentEvidenceBefore: number;
}

export const deleteExpiredAccountRows = async (db: Db, cutoffs: ExpiryCutoffs) => {
  const { now, outboxBefore } = cutoffs;
  const { securityEventsBefore, consentEvidenceBefore } = cutoffs;
  const refreshTokens = await inBatches(BATCH, () =>
    db
      .deleteFrom('refresh_tokens')
      .where(
        'token_hash',
        'in',
        db.selectFrom('refresh_tokens').select('token_hash').where('expires_at', '<=', now).limit(BATCH),
      )
      .executeTakeFirst(),
  );
  const tickets = await inBatches(BATCH, () =>
    db
      .deleteFrom('tickets')
      .where('id_hash', 'in', db.selectFrom('tickets').select('id_hash').where('expires_at', '<=', now).limit(BATCH))
      .executeTakeFirst(),
  );
  const outbox = await inBatches(BATCH, () =>
    db
      .deleteFrom('outbox')
      .where('id', 'in', db.selectFrom('outbox').select('id').where('sent_at', '<', outboxBefore).limit(BATCH))
      .executeTakeFirst(),
  );
  const securityEvents = await inBatches(BATCH, () =>
    db
      .deleteFrom('security_events')
      .where(
        'id',
        'in',
        db.selectFrom('security_events').select('id').where('at', '<', securityEventsBefore).limit(BATCH),
      )
      .executeTakeFirst(),
  );
  const consentEvidence = await inBatches(BATCH, () =>
    db
      .deleteFrom('guardian_consents')
      .where(
        'id',
        'in',
        db
          .selectFrom('guardian_consents')
          .select('id')
          .where('account_ended_at', '<', consentEvidenceBefore)
          .limit(BATCH),
      )
      .executeTakeFirst(),
  );
  // A data export's zip goes when its link stops working (DATA_EXPORT_LINK_HOURS); the row stays as
  // the record of the request, with the account.
  const exportFiles = await inBatches(BATCH, () =>
    db
      .updateTable('data_exports')
      .set({ state: 'expired', file: null, link_sealed: null })
      .where(
        'id',
        'in',
        db
          .selectFrom('data_exports')
          .select('id')
          .where('state', '=', 'ready')
          .where('link_expires_at', '<=', now)
          .limit(BATCH),
      )
      .executeTakeFirst(),
  );
  // Which people staff read in a year that is over: its count of people read is final.
  const peopleReadMarks = await inBatches(BATCH, () =>
    sweepPeopleReadBefore(db, Math.floor(chinaMonth(now) / 100), BATCH),
  );
  // One row per phone or e-mail and purpose, and per rate-limit key: small enough for one statement.
  const codes = await db.deleteFrom('codes').where('expires_at', '<=', now).executeTakeFirst();
  const counters = await db.deleteFrom('counters').where('expires_at', '<=', now).executeTakeFirst();
  return {
    refreshTokens,
    tickets,
    outbox,
    securityEvents,
    consentEvidence,
    exportFiles,
    peopleReadMarks,
    codes: Number(codes.numDeletedRows),
    counters: Number(counters.numDeletedRows),
  };
};
