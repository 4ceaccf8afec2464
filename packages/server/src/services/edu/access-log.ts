/**
 * Who read what (DESIGN.md, the education layer): every call that shows a teacher, a school admin, a
 * guardian or an operator part of another person's record writes one access-log row per person — the reader and
 * their role, the person, the fields shown, why and, for an operator's read of a minor, the reason
 * given — through `logReads`, the one way to write it (`logPupilReads` is its teachers' form). A call
 * that changes something writes the rows in its transaction, so a read is logged exactly when its
 * answer was made. A person sees the reads of their own record, a guardian the child's
 * (services/account/record-reads.ts).
 *
 * The log says who read what, on which day and why: the same read again on the same day (the same
 * reader in the same role, person, purpose, fields and reason; days in China Standard Time) writes no
 * second row, so a teacher opening a class of 40 ten times a day logs 40 rows, not 400. A row's time
 * is the day's first such read.
 */
import { CHINA_OFFSET_MS, DAY_MS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { insertAccessLogRows } from '../../store/edu/access-log.ts';
import { sha256 } from '../security/hashing.ts';

/** The parts of a pupil's record an education call shows. */
export type PupilField =
  | 'name'
  | 'username'
  | 'class'
  | 'membership'
  | 'managed_by_school'
  | 'initial_password'
  | 'new_password'
  | 'age'
  | 'consent'
  | 'guardians'
  | 'devices'
  | 'minor_mode';

/** The parts of a person's record the console shows; all of them are in a copy of the person's data. */
export const ACCOUNT_FIELDS = [
  'phone',
  'email',
  'username',
  'nickname',
  'fullname',
  'avatar',
  'sign_in_methods',
  'agreements',
  'sessions',
  'school',
] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

/** Why the record was shown: the call that showed it. */
export type ReadPurpose =
  | 'class_detail'
  | 'card_sheet'
  | 'pupils_created'
  | 'pupils_reset'
  | 'school_overview'
  | 'user_detail'
  | 'user_export'
  | 'user_search'
  | 'teacher_requests'
  | 'roster_preview'
  | 'guardian_view'
  | 'guardian_invite'
  | 'guardians_to_confirm'
  | 'pupil_duplicates'
  | 'pupils_merged';

export type ReaderRole = 'teacher' | 'operator' | 'guardian';

export interface Read {
  readerId: number;
  role: ReaderRole;
  subjectIds: number[];
  fields: readonly (PupilField | AccountField)[];
  purpose: ReadPurpose;
  /** What the operator said when reading a minor's record. */
  reason?: string | undefined;
}

/** The key one read of one person has for its day: the row the same read that day is already in. */
const readKey = (read: Read, subjectId: number, fields: string, now: number) =>
  sha256(
    JSON.stringify([
      read.readerId,
      read.role,
      subjectId,
      read.purpose,
      fields,
      read.reason ?? null,
      Math.floor((now + CHINA_OFFSET_MS) / DAY_MS),
    ]),
  );

export const logReads = (ctx: Pick<Context, 'db' | 'now' | 'keys'>, read: Read) => {
  const now = ctx.now();
  const fields = read.fields.join(',');
  return insertAccessLogRows(
    ctx.db,
    ctx.keys.audit,
    [...new Set(read.subjectIds)]
      .filter((id) => id !== read.readerId)
      .map((id) => ({
        reader_id: read.readerId,
        reader_role: read.role,
        subject_id: id,
        fields,
        purpose: read.purpose,
        reason: read.reason ?? null,
        created_at: now,
        read_key: readKey(read, id, fields, now),
      })),
  );
};

/** A teacher's or school admin's read of pupils' records. */
export const logPupilReads = (
  ctx: Pick<Context, 'db' | 'now' | 'keys'>,
  readerId: number,
  pupilIds: number[],
  fields: readonly PupilField[],
  purpose: ReadPurpose,
) => logReads(ctx, { readerId, role: 'teacher', subjectIds: pupilIds, fields, purpose });
