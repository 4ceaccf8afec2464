/** Table types of roster imports (migration 032). */
import type { Generated } from 'kysely';

export interface RosterJobsTable {
  id: Generated<number>;
  /** The operator who uploaded it; null from the command line. */
  created_by: number | null;
  /** The school the file was said to be for (`--school`), if any. */
  school_id: number | null;
  /** `oneroster` or `template`. */
  format: string;
  /** `preview`, `held` (it removes more than the set share of a school), `applied`. */
  status: string;
  /** JSON: the rows as read, ids as HMACs; emptied once applied. */
  roster: string;
  /** JSON: what confirming would do (counts, lists, refused rows). */
  preview: string;
  created_at: number;
  applied_at: number | null;
}

export interface RosterLinksTable {
  /** `org`, `class`, `user` or `enrollment`. */
  kind: string;
  /** HMAC of the roster's id (sourcedId, or the template's school, class and number). */
  source_hash: string;
  school_id: number;
  class_id: number | null;
  user_id: number | null;
  created_at: number;
  /** When a file left the class or person out (class archived, memberships ended); null while listed. */
  removed_at: number | null;
}

/** A school's home-school address book read as a roster source (migration 049). */
export interface AddressBooksTable {
  id: Generated<number>;
  school_id: number;
  /** `wecom` or `dingtalk`. */
  vendor: string;
  /** WeCom's corpid, or DingTalk's appkey. */
  app_id: string;
  /** The app's secret (corpsecret, appsecret), sealed (services/security/sealed-values.ts). */
  secret_sealed: string;
  /** `off`, `hourly` or `daily`: the operator's choice. */
  schedule: string;
  /** When the next scheduled sync is due; null when the schedule is off. */
  next_sync_at: number | null;
  /** JSON: what the last sync read and changed, or why it failed. */
  last_report: string | null;
  created_at: number;
}

/** A guardian the school's address book lists for a pupil, until that guardian confirms (migration 049). */
export interface GuardianInvitesTable {
  id: Generated<number>;
  /** HMAC of the book's guardian and pupil ids. */
  source_hash: string;
  school_id: number;
  child_id: number;
  /** `mother`, `father`, `grandparent` or `other`, read from the book's relation. */
  relation: string;
  /** The phone the school recorded; null when the app may not read it. */
  phone: string | null;
  created_at: number;
  confirmed_at: number | null;
  guardian_id: number | null;
  /** When the school last sent the invitation by SMS (migration 059); null when it never did. */
  invited_at: number | null;
  /** The day (China Standard Time, days since 1970) of `invites_that_day`. */
  invite_day: number | null;
  invites_that_day: Generated<number>;
}
