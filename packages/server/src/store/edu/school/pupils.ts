/** The accounts a school created for pupils, and the badges on their login cards. */
import { type Kysely, sql } from 'kysely';
import { STANDING_WORDS, splitStanding, standingColumns } from '../../account/standing.ts';
import { compiledOnce } from '../../compiled-query.ts';
import { SWEEP_BATCH as BATCH, inBatches } from '../../in-batches.ts';
import type { Database } from '../../schema.ts';
import { storedPupilName } from '../../sealed-records.ts';

type Db = Kysely<Database>;

export const insertPupilAccounts = (db: Db, rows: Database['pupil_accounts'][]) =>
  db
    .insertInto('pupil_accounts')
    .values(rows.map((row) => ({ ...row, display_name: storedPupilName(db, row.display_name) })))
    .execute();

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

export const insertBadges = (
  db: Db,
  rows: { token_hash: string; user_id: number; created_at: number; class_id: number }[],
) => db.insertInto('sign_in_badges').values(rows).execute();

/** How a card is named to its pupil: the first characters of its badge's hash (never the badge). */
export const CARD_ID_LENGTH = 16;
const cardIdOf = sql<string>`substr(sign_in_badges.token_hash, 1, ${sql.lit(CARD_ID_LENGTH)})`;

/** The user's badges not revoked, newest first, with the class each was printed for. */
export const liveBadgesOf = (db: Db, userId: number) =>
  db
    .selectFrom('sign_in_badges')
    .leftJoin('classes', 'classes.id', 'sign_in_badges.class_id')
    .select([cardIdOf.as('id'), 'sign_in_badges.created_at', 'classes.name as class_name'])
    .where('sign_in_badges.user_id', '=', userId)
    .where('sign_in_badges.revoked_at', 'is', null)
    .orderBy('sign_in_badges.created_at', 'desc')
    .execute();

/**
 * Revokes the user's card named `cardId`: `missing` when the user has no such card, else whether this
 * call revoked it (`revoked`) or it had been already (`done`). One update: of parallel calls one revokes.
 */
export const revokeOwnBadge = async (db: Db, userId: number, cardId: string, now: number) => {
  const owned = await db
    .selectFrom('sign_in_badges')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where(cardIdOf, '=', cardId)
    .execute();
  if (owned.length === 0) return 'missing' as const;
  const result = await db
    .updateTable('sign_in_badges')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where(
      'token_hash',
      'in',
      owned.map((o) => o.token_hash),
    )
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? ('revoked' as const) : ('done' as const);
};

/** Badges of cards ended before `before`, through the partial index `sign_in_badges_revoked`. */
export const endedBadgesQuery = (db: Db, before: number) =>
  db.selectFrom('sign_in_badges').select('token_hash').where('revoked_at', '<', before).limit(BATCH);

/** The hourly sweep: badges of cards ended before `before`; answers how many. */
export const deleteEndedBadges = (db: Db, before: number) =>
  inBatches(BATCH, () =>
    db.deleteFrom('sign_in_badges').where('token_hash', 'in', endedBadgesQuery(db, before)).executeTakeFirst(),
  );

// Every card sign-in runs it (compiled-query.ts).
const liveBadgeQuery = compiledOnce(
  (
    db,
    approved: 'approved',
    one: number,
    headTeacher: 'head_teacher',
    teacher: 'teacher',
    alsoOne: number,
    tokenHash: string,
  ) =>
    db
      .selectFrom('sign_in_badges')
      .innerJoin('users', 'users.id', 'sign_in_badges.user_id')
      .selectAll('users')
      .select((eb) => {
        const user = eb.ref('users.id');
        return standingColumns([user, user, user, user, user], approved, one, headTeacher, teacher, alsoOne);
      })
      .where('sign_in_badges.token_hash', '=', tokenHash)
      .where('sign_in_badges.revoked_at', 'is', null),
  [...STANDING_WORDS, ''],
);

/**
 * The account a live card's badge opens and its standing (store/account/standing.ts), read with the
 * badge in one statement: a card's sign-in asks nothing more of the database before its session.
 */
export const findUserByLiveBadge = async (db: Db, tokenHash: string) => {
  const found = (await liveBadgeQuery(db, ...STANDING_WORDS, tokenHash)).rows[0];
  if (found === undefined) return undefined;
  const { row, standing } = splitStanding(found);
  return { user: row, standing };
};

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

/**
 * The pupil chose their own password: no change is asked any more, the card no longer prints the old
 * one, and the cards the school printed stop signing in, unless the pupil's school chose that cards
 * keep working (`schools.cards_keep_working`). Answers how many cards ended.
 */
export const pupilChosePassword = async (db: Db, userId: number, now: number) => {
  await db
    .updateTable('pupil_accounts')
    .set({ must_change_password: 0, initial_password_sealed: null })
    .where('user_id', '=', userId)
    .execute();
  const ended = await db
    .updateTable('sign_in_badges')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('pupil_accounts')
            .innerJoin('schools', 'schools.id', 'pupil_accounts.school_id')
            .select('pupil_accounts.user_id')
            .where('pupil_accounts.user_id', '=', userId)
            .where('schools.cards_keep_working', '=', 1),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(ended.numUpdatedRows);
};

/** Whether the pupil's school keeps its printed cards working after the pupil's own password. */
export const schoolKeepsCards = async (db: Db, userId: number) =>
  (
    await db
      .selectFrom('pupil_accounts')
      .innerJoin('schools', 'schools.id', 'pupil_accounts.school_id')
      .select('schools.cards_keep_working')
      .where('pupil_accounts.user_id', '=', userId)
      .executeTakeFirst()
  )?.cards_keep_working === 1;
