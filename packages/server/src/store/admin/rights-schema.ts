/** Table types of the admin room: staff access approvals and data-rights requests (migration 029), the report counters (044), the audit and its chains (050). */
import type { Generated } from 'kysely';

export interface StaffAccessApprovalsTable {
  id: Generated<number>;
  /** The operator who asks to read the record. */
  requested_by: number;
  /** Whose record. */
  subject_id: number;
  reason: string;
  status: 'pending' | 'approved' | 'refused';
  /** The other operator who approved or refused. */
  decided_by: number | null;
  decided_at: number | null;
  /** An approval lets the asker read the record until then. */
  expires_at: number | null;
  created_at: number;
}

export interface DataRequestsTable {
  id: Generated<number>;
  /** The person the request is about (by number: the row outlives the account). */
  user_id: number;
  kind: 'export' | 'correction' | 'deletion' | 'objection';
  /** `user`, `guardian`, `operator` or `unconfirmed` (the sweeper, for a child nobody consented for). */
  requested_by: string;
  status: 'open' | 'done' | 'refused' | 'cancelled';
  /** What was asked, in the asker's words (corrections and objections an operator records). */
  detail: Generated<string>;
  refusal_reason: string | null;
  created_at: number;
  /** When the answer is due (DATA_REQUEST_DUE_WORKING_DAYS working days after `created_at`). */
  due_at: number;
  closed_at: number | null;
}

/** The yearly report's counters (migration 044): a count per China-time month, figure and key; names nobody. */
export interface ReportCountersTable {
  /** `YYYYMM`, China time. */
  month: number;
  /** What is counted (store/admin/report-counters.ts `Figure`). */
  figure: string;
  /** Within the figure: an age band, a role, a decision; '' where the figure has one count. */
  key: string;
  count: number;
}

/** The people whose records staff read in a year (migration 044): each counted once in the year's `people_read`. */
export interface ReportPeopleReadTable {
  subject_id: number;
  /** China time. */
  year: number;
}

export interface AdminAuditTable {
  id: Generated<number>;
  operator_id: number;
  action: string;
  target: string;
  detail: string;
  at: number;
  /** Its place in the audit's chain (migration 050; null for rows written before). */
  chain_seq: number | null;
  /** The HMAC over the row and the link before it (store/admin/audit-chain.ts). */
  chain_link: string | null;
}

/** Each tamper-evident log's chain: its head, and the anchor retention left (migration 050). */
export interface AuditChainsTable {
  chain: string;
  /** The last place given, and its link. */
  seq: number;
  link: string;
  /** The last place of the segment retention dropped (0 when none), its link, its time, and their HMAC. */
  anchor_seq: number;
  anchor_link: string;
  anchor_at: number | null;
  anchor_mac: string | null;
}
