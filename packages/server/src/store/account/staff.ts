/**
 * What the staff identity controls keep (services/passwords/staff-policy.ts): the hashes of a staff
 * member's previous passwords (whether an account is staff: standing.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/** The newest `count` previous password hashes of a user. */
export const previousPasswordHashes = async (db: Db, userId: number, count: number): Promise<string[]> => {
  if (count === 0) return [];
  const rows = await db
    .selectFrom('password_history')
    .select('password_hash')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((row) => row.password_hash);
};

/** Keeps a replaced password's hash, and no more than `keep` of them for the user. */
export const keepPreviousPassword = async (db: Db, userId: number, hash: string, now: number, keep: number) => {
  await db.insertInto('password_history').values({ user_id: userId, password_hash: hash, created_at: now }).execute();
  const kept = await db
    .selectFrom('password_history')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (kept.length > 0) {
    await db
      .deleteFrom('password_history')
      .where(
        'id',
        'in',
        kept.map((row) => row.id),
      )
      .execute();
  }
};
