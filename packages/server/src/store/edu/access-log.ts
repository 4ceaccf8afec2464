/** The education layer's access log: who was shown which fields of which pupil's record, and why. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export const insertAccessLogRows = (
  db: Db,
  rows: { reader_id: number; subject_id: number; fields: string; purpose: string; created_at: number }[],
) =>
  rows.length === 0
    ? Promise.resolve()
    : db
        .insertInto('edu_access_log')
        .values(rows)
        .execute()
        .then(() => {});

/** The reads of one pupil's record, newest first, with each reader's nickname. */
export const accessLogOf = (db: Db, subjectId: number, limit: number) =>
  db
    .selectFrom('edu_access_log')
    .leftJoin('users', 'users.id', 'edu_access_log.reader_id')
    .select([
      'edu_access_log.reader_id',
      'users.nickname as reader_name',
      'edu_access_log.fields',
      'edu_access_log.purpose',
      'edu_access_log.created_at',
    ])
    .where('edu_access_log.subject_id', '=', subjectId)
    .orderBy('edu_access_log.created_at', 'desc')
    .orderBy('edu_access_log.id', 'desc')
    .limit(limit)
    .execute();
