/**
 * Table types of the education layer: schools, classes, their members, pupil accounts, badges
 * (migration 019); the access log and join codes' expiry (022); guardian consents and guardians (023).
 */
import type { ClassRole, SchoolRole } from '@edupass/protocol';
import type { ColumnType, Generated } from 'kysely';

export interface SchoolsTable {
  id: Generated<number>;
  name: string;
  /** Pupil batches a day for the whole school; null: `EDU_SCHOOL_DAILY_BATCHES`. */
  daily_batches: number | null;
  created_at: number;
  /**
   * 1: a pupil's own password change leaves the school's printed cards working; 0 (the default): the
   * change ends them (migration 038).
   */
  cards_keep_working: Generated<number>;
  /** The name as a search compares it: NFKC, lower case, no spaces (migration 040). */
  name_key: Generated<string>;
}

/** The two-character pieces of each school's `name_key`, for the name search (migration 040). */
export interface SchoolNameGramsTable {
  gram: string;
  school_id: number;
}

export interface SchoolMembersTable {
  school_id: number;
  user_id: number;
  role: SchoolRole;
  /**
   * A teacher is `pending` until an operator or a school admin approves; `refused` when they turned the
   * request down (migration 040; asking again makes it `pending`).
   */
  status: 'pending' | 'approved' | 'refused';
  created_at: number;
  /** The name the teacher gave the school when asking ("王老师"); null: none (migration 055). */
  display_name: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * A school's identifier of a person (the roster's 学号 or sourcedId, the CAS user, a SAML attribute, an
 * OpenID Connect subject) as one key per school (migration 047): every source of the school finds the
 * same account by it.
 */
export interface SchoolPersonKeysTable {
  school_id: number;
  /**
   * HMAC of the school and the identifier (services/edu/school/person-keys.ts), never the identifier; a
   * connector's identity linked before migration 047 keeps its older hash until its next sign-in.
   */
  key_hash: string;
  user_id: number;
  /** What wrote it first: `roster`, or the connector's kind (`cas`, `saml`, `oidc`). */
  source: string;
  created_at: number;
}

/**
 * Two accounts of the school one identifier names, one under the school's key and one under a
 * connector's older key (migration 060): the duplicate list's "same school number". `user_id` < `other_id`.
 */
export interface SchoolNumberPairsTable {
  school_id: number;
  user_id: number;
  other_id: number;
  created_at: number;
}

/** A class's name is unique in its school and school year (migration 047). */
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
  /** The class the card was printed for (migration 038); null for cards printed before. */
  class_id: number | null;
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
  /** `teacher` (a teacher or school admin) or `operator` (migration 029). */
  reader_role: Generated<string>;
  /** The reason an operator gave for reading a minor's record; null otherwise. */
  reason: string | null;
  /** When the read was first made that day. */
  created_at: number;
  /**
   * Unique: the same read (reader, person, why, fields) on the same day (China Standard Time) is one row
   * (migration 042; null for rows written before).
   */
  read_key: Generated<string | null>;
  /** Its place in the log's chain and its link (migration 050, store/admin/audit-chain.ts); null before. */
  chain_seq: number | null;
  chain_link: string | null;
}

export interface GuardianConsentsTable {
  id: Generated<number>;
  /** The child's account id; the record outlives the account (a refusal deletes it). */
  child_id: number;
  /** The guardian's account; null for the school's consent (a pupil a teacher created). */
  guardian_id: number | null;
  /** How the guardian was proven: `sms` (a code to the guardian's own phone) or `school`. */
  method: string;
  /** The version of the consent text the decision was given under. */
  text_version: number;
  /** The scopes the decision granted, space-separated ('' for a refusal or withdrawal). */
  scopes: string;
  decision: 'granted' | 'refused' | 'withdrawn';
  created_at: number;
  /** When the child's account was erased; the record goes CONSENT_EVIDENCE_RETENTION_YEARS later. */
  account_ended_at: Generated<number | null>;
  /** The guardian's adult check the consent was given after (migration 033): vendor, request id, time. */
  adult_check_vendor: string | null;
  adult_check_request_id: string | null;
  adult_check_at: number | null;
}

/** A guardian's adult check through the real-name vendor (migration 033): never the name or ID number. */
export interface GuardianAdultChecksTable {
  id: Generated<number>;
  user_id: number;
  /** `tencent`, `aliyun` or `dev`. */
  vendor: string;
  /** `adult`, `minor`, `mismatch`, `no_record`. */
  result: string;
  /** The vendor's request id (null when the ID number alone showed a minor and no vendor was asked). */
  request_id: string | null;
  created_at: number;
}

/** A school's agreement for the pupils its teachers create (migration 033); the newest not ended stands. */
export interface SchoolAgreementsTable {
  id: Generated<number>;
  school_id: number;
  signatory: string;
  /** `YYYY-MM-DD`. */
  signed_on: string;
  text_version: number;
  recorded_by: number;
  recorded_at: number;
  ended_at: number | null;
  /** JSON array of the client ids of the third-party applications it covers (migration 039). */
  applications: Generated<string>;
}

export interface GuardiansTable {
  child_id: number;
  guardian_id: number;
  /** `mother`, `father`, `grandparent`, `other`: what the guardian said. */
  relation: string;
  created_at: number;
  /** From when the guardian may take a copy of the child's data (migration 037); null: at once. */
  export_from: number | null;
}

/**
 * A guardian link waiting for the child's guardians (migration 037): `pending` until a guardian
 * approves or refuses, or `opens_at` passes (approved, `how` = `waited`).
 */
export interface GuardianRequestsTable {
  id: Generated<number>;
  child_id: number;
  requester_id: number;
  relation: string;
  state: 'pending' | 'approved' | 'refused';
  asked_at: number;
  opens_at: number;
  decided_by: number | null;
  decided_at: number | null;
  how: 'guardian' | 'waited' | null;
  /** The pupil's school when a teacher opened the code spent (a letter, the login card); null: the child's own. */
  via_school_id: number | null;
}

/** A guardian's stricter minor mode for a child (migration 028); null: the operator's default. */
export interface MinorSettingsTable {
  user_id: number;
  daily_limit_minutes: number | null;
  /** `HH:MM-HH:MM`, may cross midnight. */
  curfew: string | null;
  /** The guardian who set them last. */
  updated_by: number;
  updated_at: number;
}
