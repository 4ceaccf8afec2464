/** The tables of migration 030: data exports and the security events kept per account. */
import type { ExportState } from '@edupass/protocol';
import type { Generated } from 'kysely';

/** Who asked for an export: the person, a linked guardian, or an operator on the person's request. */
export type ExportRequester = 'user' | 'guardian' | 'operator';

export interface DataExportsTable {
  id: Generated<number>;
  /** Whose data. */
  user_id: number;
  requested_by: ExportRequester;
  /** The person, guardian or operator who asked, and who alone is shown the link. */
  requester_id: number;
  /** The README's language (`zh-CN` or `en`). */
  lang: string;
  state: ExportState;
  attempts: Generated<number>;
  lease_holder: string | null;
  lease_until: number | null;
  /** SHA-256 (hex) of the link's secret. */
  link_hash: string | null;
  link_sealed: string | null;
  link_expires_at: number | null;
  file: Buffer | null;
  created_at: number;
  finished_at: number | null;
}

export interface SecurityEventsTable {
  id: Generated<number>;
  user_id: number;
  event: string;
  reason: string;
  ip: string;
  at: number;
}
