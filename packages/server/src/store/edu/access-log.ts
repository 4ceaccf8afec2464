/** The education layer's access log: who was shown which fields of which person's record, and why. */
import type { KeyObject } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { appendReads } from '../admin/audit-chain.ts';
import { countReads } from '../admin/report-counters.ts';
import type { Database } from '../schema.ts';
import { inStoreTransaction } from '../transaction.ts';

type Db = Kysely<Database>;

/**
 * Writes the rows at the end of the log's chain (admin/audit-chain.ts) with their counts (the yearly
 * report's reads), in `db`'s transaction or one of their own; a row whose `read_key` is in the log
 * already (the same read that day) is left out, and only the rows written are counted.
 */
export const insertAccessLogRows = (
  db: Db,
  key: KeyObject,
  rows: Omit<Insertable<Database['edu_access_log']>, 'chain_seq' | 'chain_link'>[],
) =>
  rows.length === 0
    ? Promise.resolve()
    : inStoreTransaction(db, async (tx) => countReads(tx, await appendReads(tx, key, rows)));

/**
 * The reads of one person's record, newest first, with each reader's nickname and, for a guardian of
 * the person, their relation: after the read `after`
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
