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
