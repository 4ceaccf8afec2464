/**
 * A roster as read from a file, in one shape for both formats (OneRoster 1.2 CSV and the Chinese-header
 * template): every id is already the HMAC of the file's id, so nothing stored with a job holds a
 * sourcedId or a student number in clear.
 */
import type { KeyObject } from 'node:crypto';
import type { GuardianRelation, RosterRefusalReason } from '@edupass/protocol';
import { hmac } from '../../security/hashing.ts';

/** How a file of the set is to be read (OneRoster's manifest: `file.<name>`). */
export type FileMode = 'bulk' | 'delta' | 'absent';

export interface Where {
  file: string;
  line: number;
}

/** Why a row is left out: the protocol's ROSTER_REFUSALS, each with its sentence. */
export type RefusalReason = RosterRefusalReason;

/** A class, person or school of the file: its ref, and the title or name the file gives it. */
export interface Subject {
  kind: 'class' | 'person' | 'school';
  ref: string;
  name: string;
}

/** A refused row that other rows depend on: what it is, where, and why it was refused. */
export interface Cause extends Where {
  kind: Subject['kind'];
  name: string;
  column: string;
  reason: RefusalReason;
}

export interface Refusal extends Where {
  column: string;
  reason: RefusalReason;
  /** The class, person or school the refused row is, when the row got as far as naming one. */
  subject?: Subject;
  /** For a row refused because a row it depends on was: that row. */
  cause?: Cause;
}

export type RosterRole = 'pupil' | 'teacher';

export interface RosterOrg {
  ref: string;
  name: string;
  deleted: boolean;
  at: Where;
}

export interface RosterClass {
  ref: string;
  orgRef: string;
  title: string;
  /** Null when the file gives none (OneRoster 1.2's `grades` is optional). */
  grade: number | null;
  schoolYear: string;
  deleted: boolean;
  at: Where;
}

export interface RosterUser {
  ref: string;
  /**
   * The hash of the school's identifier of the person (the template's 学号/编号, the sourcedId), from which
   * the school's key is made once the school is known (../school/person-keys.ts); absent in a job stored
   * before keys were one per school.
   */
  idHash?: string;
  /** The school the person belongs to (first school org named), when the file says. */
  orgRef: string | undefined;
  role: RosterRole | undefined;
  name: string;
  /** Teachers only: matched to an existing EduPass account. */
  phone: string;
  email: string;
  deleted: boolean;
  /**
   * In the source but on the way out (an address book's graduated grade): kept when linked before,
   * never created, and no longer in a class.
   */
  leaving?: boolean;
  at: Where;
}

/**
 * A guardian an address book lists for a pupil: a pending link carrying its relation, which the
 * guardian confirms (services/edu/family/school-invites.ts). `phone` is '' when the source may not
 * read it: the guardian then confirms with a code the school hands over.
 */
export interface RosterGuardian {
  ref: string;
  childRef: string;
  orgRef: string;
  relation: GuardianRelation;
  phone: string;
}

export interface RosterEnrollment {
  ref: string;
  classRef: string;
  userRef: string;
  role: 'pupil' | 'teacher' | 'head_teacher';
  deleted: boolean;
  at: Where;
}

export interface Roster {
  /** A file's format, or the address book it was read from (`wecom`, `dingtalk`). */
  format: 'oneroster' | 'template' | 'wecom' | 'dingtalk';
  /** How the text was decoded: `gb18030` when it was not UTF-8 (Chinese Excel's GBK). */
  encoding: 'utf-8' | 'gb18030';
  modes: { orgs: FileMode; classes: FileMode; users: FileMode; enrollments: FileMode };
  orgs: RosterOrg[];
  classes: RosterClass[];
  users: RosterUser[];
  enrollments: RosterEnrollment[];
  /** Address books only: the guardians they list. */
  guardians?: RosterGuardian[];
  refused: Refusal[];
  /** Blank lines among the rows, skipped. */
  blank: Where[];
  /** Data rows read (headers and blank lines not counted). */
  rows: number;
}

export type RefKind = 'org' | 'class' | 'user' | 'enrollment' | 'guardian';

/** The stored form of a roster id: an HMAC under the keyring's `identifiers` key, per kind. */
export const rosterRef = (key: KeyObject, kind: RefKind, id: string) => hmac(key, `roster:${kind}:${id}`);

/** A class's grade from OneRoster's grade codes (CEDS) or a number; undefined when it names none. */
export const readGrade = (value: string): number | undefined => {
  const first = value.split(',')[0]?.trim().toUpperCase() ?? '';
  if (/^\d{1,2}$/.test(first)) {
    const n = Number(first);
    return n <= 13 ? n : undefined;
  }
  if (['KG', 'PK', 'PR', 'IT', 'TK'].includes(first)) return 0;
  // Postsecondary and undergraduate: adults.
  if (first === 'PS' || first === 'UG') return 13;
  // 一年级…九年级, 初一…初三 (7–9), 高一…高三 (10–12).
  const chinese = /^(?:([一二三四五六七八九])年级|([初高])([一二三]))$/.exec(first);
  if (chinese) {
    const digits = '一二三四五六七八九';
    if (chinese[1]) return digits.indexOf(chinese[1]) + 1;
    return digits.indexOf(chinese[3] as string) + (chinese[2] === '初' ? 7 : 10);
  }
  return undefined;
};

/** A person's name as a pupil list shows it: at most 32 characters, no control characters. */
export const readPersonName = (name: string): string | undefined => {
  const cleaned = name.replace(/\s+/g, ' ').trim();
  return cleaned === '' || [...cleaned].length > 32 || /\p{Cc}/u.test(cleaned) ? undefined : cleaned;
};
