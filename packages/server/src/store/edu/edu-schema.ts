/**
 * Table types of the education layer: schools, classes, their members, pupil accounts, badges
 * (migration 019); the access log and join codes' expiry (022).
 */
import type { ClassRole, SchoolRole } from '@edupass/protocol';
import type { Generated } from 'kysely';

export interface SchoolsTable {
  id: Generated<number>;
  name: string;
  /** Pupil batches a day for the whole school; null: `EDU_SCHOOL_DAILY_BATCHES`. */
  daily_batches: number | null;
  created_at: number;
}

export interface SchoolMembersTable {
  school_id: number;
  user_id: number;
  role: SchoolRole;
  /** A teacher is `pending` until an operator or a school admin approves. */
  status: 'pending' | 'approved';
  created_at: number;
}

export interface ClassesTable {
  id: Generated<number>;
  school_id: number;
  name: string;
  grade: number;
  /** The school year or term, as the school writes it (`2026-2027`, `2026 autumn`). */
  school_year: string;
  /** What a pupil with a personal account types to ask to join; null when none is open. */
  join_code: string | null;
  /** When the join code stops working (migration 022). */
  join_code_expires_at: number | null;
  archived_at: number | null;
  created_at: number;
}

export interface ClassMembersTable {
  class_id: number;
  user_id: number;
  role: ClassRole;
  /** A pupil who asked with the join code is `pending` until a teacher of the class approves. */
  status: 'active' | 'pending';
  created_at: number;
}

export interface PupilAccountsTable {
  /** The account a school created (no phone or e-mail of its own until the pupil adds one). */
  user_id: number;
  school_id: number;
  /** The teacher who created it; the account stays the school's when that teacher leaves. */
  created_by: number;
  display_name: string;
  /** The initial password, sealed, printed on the card; null once the account is the pupil's own. */
  initial_password_sealed: string | null;
  must_change_password: number;
  created_at: number;
}

export interface SignInBadgesTable {
  /** SHA-256 of the badge token the card's QR code carries. */
  token_hash: string;
  user_id: number;
  created_at: number;
  revoked_at: number | null;
}

export interface EduAccessLogTable {
  id: Generated<number>;
  /** The teacher or school admin who was shown the record. */
  reader_id: number;
  /** The pupil whose record it was. */
  subject_id: number;
  /** The fields shown, comma-separated (services/edu/access-log.ts names them). */
  fields: string;
  /** Why: the call that showed them. */
  purpose: string;
  created_at: number;
}
