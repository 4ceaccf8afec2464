/** The accounts a school created for pupils, and the badges on their login cards. */
import type { Kysely } from 'kysely';
import type { Database } from '../../schema.ts';

type Db = Kysely<Database>;

export const insertPupilAccounts = (db: Db, rows: Database['pupil_accounts'][]) =>
  db.insertInto('pupil_accounts').values(rows).execute();

export const pupilAccountsOf = (db: Db, userIds: number[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('pupil_accounts')
        .innerJoin('users', 'users.id', 'pupil_accounts.user_id')
        .select([
          'pupil_accounts.user_id',
          'pupil_accounts.school_id',
          'pupil_accounts.display_name',
          'pupil_accounts.initial_password_sealed',
          'pupil_accounts.must_change_password',
          'users.username',
          'users.phone',
          'users.pid',
        ])
        .where('pupil_accounts.user_id', 'in', userIds)
        .execute();

export const findPupilAccount = (db: Db, userId: number) =>
  db.selectFrom('pupil_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();

export const setPupilPassword = (
  db: Db,
  userId: number,
  change: { password_hash: string; sealed: string; mustChange: boolean; now: number },
) =>
  Promise.all([
    db
      .updateTable('users')
      .set({ password_hash: change.password_hash, weak_password: 0, updated_at: change.now })
      .where('id', '=', userId)
      .execute(),
    db
      .updateTable('pupil_accounts')
      .set({ initial_password_sealed: change.sealed, must_change_password: change.mustChange ? 1 : 0 })
      .where('user_id', '=', userId)
      .execute(),
  ]);

/** Revokes the user's live badges; a new card's badge is inserted after. */
export const revokeBadges = (db: Db, userIds: number[], now: number) =>
  db
    .updateTable('sign_in_badges')
    .set({ revoked_at: now })
    .where('user_id', 'in', userIds)
    .where('revoked_at', 'is', null)
    .execute();

export const insertBadges = (db: Db, rows: { token_hash: string; user_id: number; created_at: number }[]) =>
  db.insertInto('sign_in_badges').values(rows).execute();

export const findLiveBadge = (db: Db, tokenHash: string) =>
  db
    .selectFrom('sign_in_badges')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();

/** Usernames among `candidates` already taken (case-insensitive). */
export const takenUsernames = async (db: Db, candidates: string[]) => {
  const rows = await db
    .selectFrom('users')
    .select('username_key')
    .where(
      'username_key',
      'in',
      candidates.map((c) => c.toLowerCase()),
    )
    .execute();
  return new Set(rows.map((r) => r.username_key));
};

/** The pupil chose their own password: no change is asked any more and the card no longer prints the old one. */
export const pupilChosePassword = (db: Db, userId: number) =>
  db
    .updateTable('pupil_accounts')
    .set({ must_change_password: 0, initial_password_sealed: null })
    .where('user_id', '=', userId)
    .execute();
