/** A school's identifiers of people as one key per school (`school_person_keys`, migration 047). */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../schema.ts';
import type { SchoolPersonKeysTable } from '../edu-schema.ts';
import { chunks } from '../roster/roster.ts';

type Db = Kysely<Database>;

export type PersonKeyRow = Insertable<SchoolPersonKeysTable>;

/** The accounts these keys of the school name: key → account. */
export const keyedUsers = async (db: Db, schoolId: number, hashes: string[]) => {
  const found = new Map<string, number>();
  for (const part of chunks([...new Set(hashes)], 1000)) {
    if (part.length === 0) continue;
    const rows = await db
      .selectFrom('school_person_keys')
      .select(['key_hash', 'user_id'])
      .where('school_id', '=', schoolId)
      .where('key_hash', 'in', part)
      .execute();
    for (const r of rows) found.set(r.key_hash, Number(r.user_id));
  }
  return found;
};

/** Writes the keys that are not there yet (a key names one account: the first written stays). */
export const insertPersonKeys = async (db: Db, rows: PersonKeyRow[]) => {
  let inserted = 0;
  for (const part of chunks(rows)) {
    const result = await db
      .insertInto('school_person_keys')
      .values(part)
      .onConflict((oc) => oc.columns(['school_id', 'key_hash']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
};

/** Puts `to` in place of the older hash `from` of the same person (a connector's hash before migration 047). */
export const rekeyPerson = async (db: Db, row: PersonKeyRow, from: string) => {
  await insertPersonKeys(db, [row]);
  await db
    .deleteFrom('school_person_keys')
    .where('school_id', '=', row.school_id)
    .where('key_hash', '=', from)
    .where('user_id', '=', row.user_id)
    .execute();
};

/** The schools that hold a key of the account. */
export const schoolsKeying = async (db: Db, userId: number) =>
  (
    await db.selectFrom('school_person_keys').select('school_id').distinct().where('user_id', '=', userId).execute()
  ).map((r) => Number(r.school_id));

/** Moves every key of `from` to `to` (a merge of two accounts of one pupil). */
export const moveKeys = (db: Db, from: number, to: number) =>
  db.updateTable('school_person_keys').set({ user_id: to }).where('user_id', '=', from).execute();

/**
 * Records that one identifier of the school names two accounts (the school's key on one, a connector's
 * older key on the other): the duplicate list's "same school number" (migration 060).
 */
export const recordNumberPair = async (db: Db, schoolId: number, a: number, b: number, now: number) => {
  if (a === b) return;
  await db
    .insertInto('school_number_pairs')
    .values({ school_id: schoolId, user_id: Math.min(a, b), other_id: Math.max(a, b), created_at: now })
    .onConflict((oc) => oc.columns(['school_id', 'user_id', 'other_id']).doNothing())
    .execute();
};

/** The school's pairs of accounts one identifier names (both ids of each). */
export const numberPairsOf = async (db: Db, schoolId: number) =>
  (
    await db
      .selectFrom('school_number_pairs')
      .select(['user_id', 'other_id'])
      .where('school_id', '=', schoolId)
      .orderBy('created_at')
      .execute()
  ).map((r) => [Number(r.user_id), Number(r.other_id)] as const);

/** Forgets the pairs an account is part of (it was merged into another, or it goes). */
export const forgetNumberPairs = (db: Db, userId: number) =>
  db
    .deleteFrom('school_number_pairs')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('other_id', '=', userId)]))
    .execute();
