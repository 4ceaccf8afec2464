/**
 * Who read what (DESIGN.md, the education layer): every call that shows a teacher or school admin
 * part of a pupil's record writes one access-log row per pupil — the reader, the pupil, the fields
 * shown and why — through `logPupilReads`, the one way to write it. A call that changes something
 * writes the rows in its transaction, so a read is logged exactly when its answer was made. A person
 * sees the reads of their own record (`GET /edu/me/access-log`).
 */
import type { Context } from '../../context.ts';
import { accessLogOf, insertAccessLogRows } from '../../store/edu/access-log.ts';

/** The parts of a pupil's record an education call shows. */
export type PupilField =
  | 'name'
  | 'username'
  | 'class'
  | 'membership'
  | 'managed_by_school'
  | 'initial_password'
  | 'new_password';

/** Why the record was shown: the call that showed it. */
export type ReadPurpose = 'class_detail' | 'card_sheet' | 'pupils_created' | 'pupils_reset';

export const logPupilReads = (
  ctx: Pick<Context, 'db' | 'now'>,
  readerId: number,
  pupilIds: number[],
  fields: readonly PupilField[],
  purpose: ReadPurpose,
) => {
  const now = ctx.now();
  return insertAccessLogRows(
    ctx.db,
    [...new Set(pupilIds)]
      .filter((id) => id !== readerId)
      .map((id) => ({ reader_id: readerId, subject_id: id, fields: fields.join(','), purpose, created_at: now })),
  );
};

/** What a person is shown of the reads of their own record: the last this many. */
const OWN_LOG_MAX = 100;

export const ownAccessLog = async (ctx: Context, userId: number) => ({
  reads: (await accessLogOf(ctx.db, userId, OWN_LOG_MAX)).map((row) => ({
    reader_id: Number(row.reader_id),
    reader_name: row.reader_name ?? '',
    fields: row.fields.split(','),
    purpose: row.purpose,
    at: Number(row.created_at),
  })),
});
