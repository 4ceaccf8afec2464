/** The education layer's access log: who was shown which fields of which person's record, and why. */
import type { Insertable, Kysely } from 'kysely';
import { countReads } from '../admin/report-counters.ts';
import type { Database } from '../schema.ts';
import { inStoreTransaction } from '../transaction.ts';

type Db = Kysely<Database>;

/** Writes the rows with their counts (the yearly report's reads), in `db`'s transaction or one of their own. */
export const insertAccessLogRows = (db: Db, rows: Insertable<Database['edu_access_log']>[]) =>
  rows.length === 0
    ? Promise.resolve()
    : inStoreTransaction(db, async (tx) => {
        await tx.insertInto('edu_access_log').values(rows).execute();
        await countReads(tx, rows);
      });

/** The reads of one person's record, newest first, with each reader's nickname. */
export const accessLogOf = (db: Db, subjectId: number, limit: number) =>
  db
    .selectFrom('edu_access_log')
    .leftJoin('users', 'users.id', 'edu_access_log.reader_id')
    .select([
      'edu_access_log.reader_id',
      'users.nickname as reader_name',
      'edu_access_log.reader_role',
      'edu_access_log.fields',
      'edu_access_log.purpose',
      'edu_access_log.reason',
      'edu_access_log.created_at',
    ])
    .where('edu_access_log.subject_id', '=', subjectId)
    .orderBy('edu_access_log.created_at', 'desc')
    .orderBy('edu_access_log.id', 'desc')
    .limit(limit)
    .execute();
