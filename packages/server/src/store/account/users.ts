import { PATTERNS } from '@edupass/protocol';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql, type Updateable } from 'kysely';
import { canonicalEmail, storedBeforeCanonical } from '../../email-address.ts';
import { countOpened } from '../admin/report-counters.ts';
import { compiledOnce } from '../compiled-query.ts';
import type { Database, NewUser, User, UsersTable } from '../schema.ts';
import { holdsRecord, type IndexedColumn, recordSealerOf, storedUserValues } from '../sealed-records.ts';
import { inStoreTransaction } from '../transaction.ts';
import { drawDefaultNickname, type NicknameDraw } from './default-nickname.ts';
import {
  type AccountStanding,
  STANDING_WORDS,
  type StandingRow,
  type StandingWords,
  splitStanding,
  standingColumns,
} from './standing.ts';

type Db = Kysely<Database>;

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/** What finds a user: the condition on `users`, with the values it binds in their order. */
type UserCondition<V extends unknown[]> = (
  eb: ExpressionBuilder<Database, 'users'>,
  ...values: V
) => Expression<SqlBool>;

/**
 * Every sign-in finds its user by one of these, compiled once (compiled-query.ts): the row alone, or
 * with the account's standing (standing.ts) as columns of the same statement — a password sign-in's
 * lookup, so a right password asks nothing more of the database before its session.
 */
const userQueries = <V extends unknown[]>(condition: UserCondition<V>, placeholders: V) => ({
  user: compiledOnce(
    (db, ...values: V) =>
      db
        .selectFrom('users')
        .selectAll()
        .where((eb) => condition(eb, ...values)),
    placeholders,
  ),
  withStanding: compiledOnce(
    (db, ...values: [...StandingWords, ...V]) => {
      const [approved, one, headTeacher, teacher, alsoOne, ...own] = values;
      return db
        .selectFrom('users')
        .selectAll()
        .select((eb) => {
          const user = eb.ref('users.id');
          return standingColumns([user, user, user, user, user], approved, one, headTeacher, teacher, alsoOne);
        })
        .where((eb) => condition(eb, ...(own as unknown as V)));
    },
    [...STANDING_WORDS, ...placeholders],
  ),
});
type UserQueries<V extends unknown[]> = ReturnType<typeof userQueries<V>>;

/** The user row alone, or with its standing's columns. */
type Reading = 'user' | 'withStanding';
type Row = User & StandingRow;

const firstRow = async <V extends unknown[]>(db: Db, queries: UserQueries<V>, reading: Reading, values: V) =>
  (reading === 'user'
    ? await queries.user(db, ...values)
    : await queries.withStanding(db, ...STANDING_WORDS, ...values)
  ).rows[0] as Row | undefined;

// A phone or address by its blind index (a child's is sealed) or, written before the indexes, by the column.
const recordQueries = (column: IndexedColumn) =>
  userQueries(
    (eb, value: string, index: string) => eb.or([eb(column, '=', value), eb(`${column}_index`, '=', index)]),
    ['', ''],
  );
const byPhone = recordQueries('phone');
const byEmail = recordQueries('email');
const byUsernameKey = userQueries((eb, value: string) => eb('username_key', '=', value), ['']);

const recordRow = (
  db: Db,
  queries: UserQueries<[string, string]>,
  column: IndexedColumn,
  value: string,
  reading: Reading,
) => firstRow(db, queries, reading, [value, recordSealerOf(db)?.index(column, value) ?? value]);

/**
 * By the address's one spelling (email-address.ts), so any spelling of the mailbox finds its account;
 * an address with an internationalised domain stored before addresses were taken in that spelling
 * (its domain in U-labels) is found too.
 */
const emailRow = async (db: Db, email: string, reading: Reading) => {
  const address = canonicalEmail(email) ?? email.toLowerCase();
  const row = await recordRow(db, byEmail, 'email', address, reading);
  if (row) return row;
  const before = storedBeforeCanonical(address);
  return before === undefined ? undefined : recordRow(db, byEmail, 'email', before, reading);
};

/** A phone number, an e-mail address or a username. */
const identityRow = (db: Db, identity: string, reading: Reading) => {
  if (PATTERNS.phone_number.test(identity)) return recordRow(db, byPhone, 'phone', identity, reading);
  if (identity.includes('@')) return emailRow(db, identity, reading);
  return firstRow(db, byUsernameKey, reading, [identity.toLowerCase()]);
};

export const findUserByPhone = (db: Db, phone: string): Promise<User | undefined> =>
  recordRow(db, byPhone, 'phone', phone, 'user');

export const findUserByEmail = (db: Db, email: string): Promise<User | undefined> => emailRow(db, email, 'user');

export const findUserByUsername = (db: Db, username: string): Promise<User | undefined> =>
  firstRow(db, byUsernameKey, 'user', [username.toLowerCase()]);

export const findUserByNickname = (db: Db, nickname: string) =>
  db.selectFrom('users').selectAll().where('nickname', '=', nickname).executeTakeFirst();

/**
 * Records that a code sent to the user's phone or e-mail was just used: it is proved (an imported one
 * was not, until now). Only the user found by that phone or address, and only while it is still theirs.
 * True when the row changed (false for one proved already: no statement).
 */
export const markProved = async (db: Db, user: User, channel: 'phone' | 'email'): Promise<boolean> => {
  const flag = channel === 'phone' ? 'phone_verified' : 'email_verified';
  const value = user[channel];
  if (value === null || user[flag] === 1) return false;
  const { numUpdatedRows } = await db
    .updateTable('users')
    .set({ [flag]: 1 })
    .where('id', '=', user.id)
    .where(holdsRecord(db, channel, value))
    .executeTakeFirst();
  return numUpdatedRows > 0n;
};

/** A phone number, an e-mail address or a username. */
export const findUserByIdentity = (db: Db, identity: string): Promise<User | undefined> =>
  identityRow(db, identity, 'user');

/** An account, and its standing (standing.ts) read with it. */
export interface FoundAccount {
  user: User;
  standing: AccountStanding;
}

/** The account a phone number, e-mail address or username names, with its standing, in one statement. */
export const findUserAndStandingByIdentity = async (db: Db, identity: string): Promise<FoundAccount | undefined> => {
  const found = await identityRow(db, identity, 'withStanding');
  if (found === undefined) return undefined;
  const { row, standing } = splitStanding(found);
  return { user: row as User, standing };
};

/** Tries to draw a free default nickname this many times before giving up (10^8 names: a clash is rare). */
const NICKNAME_DRAWS = 8;

/**
 * Inserts a user; returns undefined when a unique column (phone, e-mail, username, or the nickname the
 * user brought) is taken. A user without a nickname gets a drawn default one, drawn again while the draw
 * is taken. `ON CONFLICT DO NOTHING` rather than a caught error: inside a PostgreSQL transaction a
 * unique violation would abort the transaction and leave no way to retry.
 */
export const insertUser = (db: Db, user: NewUser, draw: NicknameDraw = drawDefaultNickname) =>
  inStoreTransaction(db, async (tx): Promise<User | undefined> => {
    for (let attempt = 0; attempt < NICKNAME_DRAWS; attempt++) {
      const nickname = user.nickname ?? draw();
      const row = storedUserValues(tx, { ...user, nickname }, user.age_band);
      const inserted = await tx
        .insertInto('users')
        .values(row)
        .onConflict((conflict) => conflict.doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) {
        await countOpened(tx, [inserted]);
        return inserted;
      }
      if (user.nickname !== null && user.nickname !== undefined) return undefined;
      if (!(await findUserByNickname(tx, nickname))) return undefined; // another column clashed
    }
    return undefined;
  });

/**
 * Inserts new users (usernames set, no nickname of their own) in one statement, each with a drawn
 * default nickname; a row whose username or nickname was taken goes through `insertUser` alone (its
 * nickname drawn again). The users in the order given; undefined where the username was taken.
 */
export const insertNamedUsers = async (db: Db, users: NewUser[]): Promise<(User | undefined)[]> => {
  if (users.length === 0) return [];
  const inserted = await inStoreTransaction(db, async (tx) => {
    const rows = await tx
      .insertInto('users')
      .values(users.map((user) => storedUserValues(tx, { ...user, nickname: drawDefaultNickname() }, user.age_band)))
      .onConflict((conflict) => conflict.doNothing())
      .returningAll()
      .execute();
    await countOpened(tx, rows);
    return rows;
  });
  const byUsername = new Map(inserted.map((user) => [user.username_key, user]));
  const answer: (User | undefined)[] = [];
  for (const user of users) answer.push(byUsername.get(user.username_key ?? null) ?? (await insertUser(db, user)));
  return answer;
};

/** Updates a user; returns false when a unique column would be duplicated. */
export const updateUser = async (db: Db, id: number, changes: Updateable<UsersTable>): Promise<boolean> => {
  try {
    const band = changes.age_band === undefined ? 'row' : changes.age_band;
    await db
      .updateTable('users')
      .set(storedUserValues(db, changes, band))
      .where('id', '=', id)
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
};

/** A unique-constraint failure, in SQLite's or PostgreSQL's words. */
export const isUniqueViolation = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
};

/**
 * Freezes the account until `erasure.at` (deletion with a grace period), or with null keeps it (no
 * longer waiting to be erased). False when it already was in that state, or there is no such user: a
 * second request changes nothing.
 */
export const setErasure = async (db: Db, id: number, erasure: { at: number; by: string } | null): Promise<boolean> => {
  const result = await db
    .updateTable('users')
    .set({ erase_at: erasure?.at ?? null, erase_requested_by: erasure?.by ?? null })
    .where('id', '=', id)
    .where('erase_at', erasure === null ? 'is not' : 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

/** Accounts whose grace period ended by `now`, the oldest first, at most `limit`. */
export const accountsDueForErasure = (db: Db, now: number, limit: number) =>
  db.selectFrom('users').selectAll().where('erase_at', '<=', now).orderBy('erase_at').limit(limit).execute();

/** Locks the user's row until the transaction ends (PostgreSQL; SQLite's writer holds the whole file). */
export const lockUserRow = (db: Db, id: number) => lockUserRows(db, [id]);

/** PostgreSQL: locks these users' rows (in id order, so two lockers never wait on each other) until the transaction ends. */
export const lockUserRows = async (db: Db, ids: number[]) => {
  if (ids.length === 0) return;
  await sql`select id from users where id in (${sql.join([...ids].sort((a, b) => a - b))}) order by id for update`.execute(
    db,
  );
};

/** Inserts users in one statement (an import's batch), counted; a clash fails the whole batch. */
export const insertUsers = (db: Db, users: NewUser[]) =>
  inStoreTransaction(db, async (tx) => {
    await tx
      .insertInto('users')
      .values(users.map((user) => storedUserValues(tx, user, user.age_band)))
      .execute();
    await countOpened(tx, users);
  });
