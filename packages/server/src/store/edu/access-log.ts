/** The education layer's access log: who was shown which fields of which person's record, and why. */
import type { KeyObject } from 'node:crypto';
import { type ExpressionBuilder, type Insertable, type Kysely, sql } from 'kysely';
import { appendReads, inChainGroup } from '../admin/audit-chain.ts';
import { countReads } from '../admin/report-counters.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/**
 * Writes the rows at the end of the log's chain (admin/audit-chain.ts) with their counts (the yearly
 * report's reads), in `db`'s transaction or with other appends in one (audit-chain.ts `inChainGroup`); a row whose `read_key` is in the log
 * already (the same read that day) is left out, and only the rows written are counted.
 */
export const insertAccessLogRows = (
  db: Db,
  key: KeyObject,
  rows: Omit<Insertable<Database['edu_access_log']>, 'chain_seq' | 'chain_link'>[],
) =>
  rows.length === 0
    ? Promise.resolve()
    : inChainGroup(db, async (tx) => countReads(tx, await appendReads(tx, key, rows)));

type LogRow = ExpressionBuilder<Database, 'edu_access_log'>;

/**
 * The reader's approved place at a school the person is a pupil of (a class there, or the school's own
 * account): the first with a name the reader gave that school.
 */
const readerAtPersonsSchool = (eb: LogRow) =>
  eb
    .selectFrom('school_members')
    .innerJoin('schools', 'schools.id', 'school_members.school_id')
    .whereRef('school_members.user_id', '=', 'edu_access_log.reader_id')
    .where('school_members.status', '=', 'approved')
    .where((inner) =>
      inner.or([
        inner(
          'school_members.school_id',
          'in',
          inner
            .selectFrom('class_members')
            .innerJoin('classes', 'classes.id', 'class_members.class_id')
            .select('classes.school_id')
            .whereRef('class_members.user_id', '=', 'edu_access_log.subject_id'),
        ),
        inner(
          'school_members.school_id',
          'in',
          inner
            .selectFrom('pupil_accounts')
            .select('pupil_accounts.school_id')
            .whereRef('pupil_accounts.user_id', '=', 'edu_access_log.subject_id'),
        ),
      ]),
    )
    .orderBy(sql`case when school_members.display_name is null then 1 else 0 end`)
    .orderBy('school_members.school_id')
    .limit(1);

/**
 * The reads of one person's record, newest first, with each reader's nickname and, for a guardian of
 * the person, their relation; for a teacher, the name they gave the school (or their real name) and
 * the school's name, as the person's school knows them: after the read `after`
 * (an id of this log), if given. Keyed by time and id (migration 045's index by subject, time and id).
 */
export const accessLogOf = async (db: Db, subjectId: number, page: { after: number | undefined; limit: number }) => {
  let query = db
    .selectFrom('edu_access_log')
    .leftJoin('users', 'users.id', 'edu_access_log.reader_id')
    .leftJoin('guardians', (join) =>
      join
        .onRef('guardians.guardian_id', '=', 'edu_access_log.reader_id')
        .onRef('guardians.child_id', '=', 'edu_access_log.subject_id'),
    )
    .select([
      'edu_access_log.id',
      'edu_access_log.reader_id',
      'users.nickname as reader_name',
      'guardians.relation as reader_relation',
      'users.fullname as reader_fullname',
      (eb) => readerAtPersonsSchool(eb).select('school_members.display_name').as('reader_given_name'),
      (eb) => readerAtPersonsSchool(eb).select('schools.name').as('reader_school_name'),
      'edu_access_log.reader_role',
      'edu_access_log.fields',
      'edu_access_log.purpose',
      'edu_access_log.reason',
      'edu_access_log.created_at',
    ])
    .where('edu_access_log.subject_id', '=', subjectId)
    .orderBy('edu_access_log.created_at', 'desc')
    .orderBy('edu_access_log.id', 'desc')
    .limit(page.limit);
  if (page.after !== undefined) {
    // The read the page starts after, looked up first: its time and id then bound the index walk.
    const seen = await db
      .selectFrom('edu_access_log')
      .select(['created_at', 'id'])
      .where('id', '=', page.after)
      .where('subject_id', '=', subjectId)
      .executeTakeFirst();
    if (!seen) return [];
    query = query.where((eb) =>
      eb(eb.refTuple('edu_access_log.created_at', 'edu_access_log.id'), '<', eb.tuple(seen.created_at, seen.id)),
    );
  }
  return query.execute();
};
