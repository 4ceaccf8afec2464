/**
 * Two accounts of one pupil made one (services/edu/school/merge-pupils.ts): what decides whether they
 * may be, and the rows that move from the account that ends to the one that stays.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../schema.ts';
import { forgetNumberPairs } from './person-keys.ts';

type Db = Kysely<Database>;

const count = async (query: { executeTakeFirst(): Promise<{ n: number | string | bigint } | undefined> }) =>
  Number((await query.executeTakeFirst())?.n ?? 0);

/** What the merge rules read of an account. */
export const mergeFacts = async (db: Db, userId: number) => {
  const user = await db
    .selectFrom('users')
    .select(['id', 'phone', 'email', 'age_band', 'consent_state', 'erase_at', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  const pupil = await db
    .selectFrom('pupil_accounts')
    .select('school_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const classSchools = await db
    .selectFrom('class_members')
    .innerJoin('classes', 'classes.id', 'class_members.class_id')
    .select('classes.school_id')
    .distinct()
    .where('class_members.user_id', '=', userId)
    .where('class_members.role', '=', 'pupil')
    .execute();
  const keySchools = await db
    .selectFrom('school_person_keys')
    .select('school_id')
    .distinct()
    .where('user_id', '=', userId)
    .execute();
  const n = sql<number>`count(*)`.as('n');
  return {
    user,
    schools: new Set([...classSchools, ...keySchools, ...(pupil ? [pupil] : [])].map((r) => Number(r.school_id))),
    staff: await count(db.selectFrom('school_members').select(n).where('user_id', '=', userId)),
    teachesClasses: await count(
      db.selectFrom('class_members').select(n).where('user_id', '=', userId).where('role', '!=', 'pupil'),
    ),
    children: await count(db.selectFrom('guardians').select(n).where('guardian_id', '=', userId)),
    ownWays:
      (await count(db.selectFrom('user_oauths').select(n).where('user_id', '=', userId))) +
      (await count(db.selectFrom('passkeys').select(n).where('user_id', '=', userId))) +
      (await count(db.selectFrom('totp_secrets').select(n).where('user_id', '=', userId))),
  };
};

export type MergeFacts = NonNullable<Awaited<ReturnType<typeof mergeFacts>>>;

/**
 * Rows of a (user, other) pair keyed table moved from `from` to `to`: those `to` has already stay
 * with `to` (its own win) and `from`'s copies go.
 */
const movePairs = async (
  db: Db,
  table: 'class_members' | 'guardians',
  column: 'user_id' | 'child_id',
  other: 'class_id' | 'guardian_id',
  from: number,
  to: number,
) => {
  await sql`
    UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${to}
    WHERE ${sql.ref(column)} = ${from} AND NOT EXISTS (
      SELECT 1 FROM ${sql.table(table)} AS mine
      WHERE mine.${sql.ref(column)} = ${to} AND mine.${sql.ref(other)} = ${sql.table(table)}.${sql.ref(other)}
    )`.execute(db);
  await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${from}`.execute(db);
};

/**
 * Moves what the pupil has from `from` to `to`: classes, guardians and their waiting requests, consent
 * records, cards, the schools' keys and roster links (the pairs one school number named are forgotten), the school's pupil row (when `to` has none) and
 * a guardian's limits (when `to` has none). The access log stays as it was written.
 */
export const moveAccountRows = async (db: Db, from: number, to: number) => {
  await movePairs(db, 'class_members', 'user_id', 'class_id', from, to);
  await movePairs(db, 'guardians', 'child_id', 'guardian_id', from, to);
  await db.updateTable('guardian_requests').set({ child_id: to }).where('child_id', '=', from).execute();
  await db.updateTable('guardian_consents').set({ child_id: to }).where('child_id', '=', from).execute();
  await db.updateTable('sign_in_badges').set({ user_id: to }).where('user_id', '=', from).execute();
  await db.updateTable('school_person_keys').set({ user_id: to }).where('user_id', '=', from).execute();
  await forgetNumberPairs(db, from);
  await db.updateTable('roster_links').set({ user_id: to }).where('user_id', '=', from).execute();
  for (const table of ['pupil_accounts', 'minor_settings'] as const) {
    const theirs = await db.selectFrom(table).select('user_id').where('user_id', '=', to).executeTakeFirst();
    if (theirs) await db.deleteFrom(table).where('user_id', '=', from).execute();
    else await db.updateTable(table).set({ user_id: to }).where('user_id', '=', from).execute();
  }
};

/** The consent columns of an account (the one that stays takes a granted consent of the other). */
export const setConsentColumns = (
  db: Db,
  userId: number,
  columns: { consent_state: Database['users']['consent_state']; consent_pending_since: number | null },
  now: number,
) =>
  db
    .updateTable('users')
    .set({ ...columns, updated_at: now })
    .where('id', '=', userId)
    .execute();

/**
 * The school's pupils (a pupil account of the school, a pupil of one of its classes, or a person it
 * keys), active or not, with the name a list shows: the school's display name, else the full name.
 */
export const pupilsOfSchool = (db: Db, schoolId: number) =>
  db
    .selectFrom('users')
    .leftJoin('pupil_accounts', 'pupil_accounts.user_id', 'users.id')
    .select([
      'users.id',
      'users.username',
      'users.fullname',
      'users.nickname',
      'users.created_at',
      'users.birth_year_month',
      'pupil_accounts.display_name',
    ])
    .where('users.erase_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('users.id', 'in', eb.selectFrom('pupil_accounts').select('user_id').where('school_id', '=', schoolId)),
        eb(
          'users.id',
          'in',
          eb
            .selectFrom('class_members')
            .innerJoin('classes', 'classes.id', 'class_members.class_id')
            .select('class_members.user_id')
            .where('classes.school_id', '=', schoolId)
            .where('class_members.role', '=', 'pupil'),
        ),
        eb('users.id', 'in', eb.selectFrom('school_person_keys').select('user_id').where('school_id', '=', schoolId)),
      ]),
    )
    .orderBy('users.id')
    .execute();

/** The classes these accounts are pupils of, by account. */
export const pupilClassesOf = async (db: Db, userIds: number[]) => {
  const rows =
    userIds.length === 0
      ? []
      : await db
          .selectFrom('class_members')
          .innerJoin('classes', 'classes.id', 'class_members.class_id')
          .select([
            'class_members.user_id',
            'classes.id',
            'classes.school_id',
            'classes.name',
            'classes.grade',
            'classes.school_year',
            'classes.archived_at',
          ])
          .where('class_members.user_id', 'in', userIds)
          .where('class_members.role', '=', 'pupil')
          .orderBy('classes.id')
          .execute();
  const byUser = new Map<number, typeof rows>();
  for (const r of rows) byUser.set(Number(r.user_id), [...(byUser.get(Number(r.user_id)) ?? []), r]);
  return byUser;
};
