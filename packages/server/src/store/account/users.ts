import { PATTERNS } from '@edupass/protocol';
import { type Kysely, sql, type Updateable } from 'kysely';
import { canonicalEmail, storedBeforeCanonical } from '../../email-address.ts';
import { countOpened } from '../admin/report-counters.ts';
import { compiledOnce } from '../compiled-query.ts';
import type { Database, NewUser, User, UsersTable } from '../schema.ts';
import { holdsRecord, type IndexedColumn, recordSealerOf, storedUserValues } from '../sealed-records.ts';
import { inStoreTransaction } from '../transaction.ts';
import { drawDefaultNickname, type NicknameDraw } from './default-nickname.ts';

type Db = Kysely<Database>;

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

// Every sign-in finds its user by one of these: compiled once (compiled-query.ts). A phone or address
// by its blind index (a child's is sealed) or, written before the indexes, by the column.
const userByRecord = (column: IndexedColumn) => {
  const query = compiledOnce(
    (db, value: string, index: string) =>
      db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.or([eb(column, '=', value), eb(`${column}_index`, '=', index)])),
    ['', ''],
  );
  return async (db: Db, value: string): Promise<User | undefined> =>
    (await query(db, value, recordSealerOf(db)?.index(column, value) ?? value)).rows[0];
};
const userByPhone = userByRecord('phone');
const userByEmail = userByRecord('email');
const usernameQuery = compiledOnce(
  (db, value: string) => db.selectFrom('users').selectAll().where('username_key', '=', value),
  [''],
);
const userByUsernameKey = async (db: Db, value: string): Promise<User | undefined> =>
  (await usernameQuery(db, value)).rows[0];

export const findUserByPhone = (db: Db, phone: string) => userByPhone(db, phone);

/**
 * By the address's one spelling (email-address.ts), so any spelling of the mailbox finds its account;
 * an address with an internationalised domain stored before addresses were taken in that spelling
 * (its domain in U-labels) is found too.
 */
export const findUserByEmail = async (db: Db, email: string): Promise<User | undefined> => {
  const address = canonicalEmail(email) ?? email.toLowerCase();
  const user = await userByEmail(db, address);
  if (user) return user;
  const before = storedBeforeCanonical(address);
  return before === undefined ? undefined : userByEmail(db, before);
};

export const findUserByUsername = (db: Db, username: string) => userByUsernameKey(db, username.toLowerCase());

export const findUserByNickname = (db: Db, nickname: string) =>
  db.selectFrom('users').selectAll().where('nickname', '=', nickname).executeTakeFirst();

/**
 * Records that a code sent to the user's phone or e-mail was just used: it is proved (an imported one
 * was not, until now). Only the user found by that phone or address, and only while it is still theirs.
 */
export const markProved = async (db: Db, user: User, channel: 'phone' | 'email') => {
  const flag = channel === 'phone' ? 'phone_verified' : 'email_verified';
  const value = user[channel];
  if (value === null || user[flag] === 1) return;
  await db
    .updateTable('users')
    .set({ [flag]: 1 })
    .where('id', '=', user.id)
    .where(holdsRecord(db, channel, value))
    .execute();
};

/** A phone number, an e-mail address or a username. */
export const findUserByIdentity = (db: Db, identity: string): Promise<User | undefined> => {
  if (PATTERNS.phone_number.test(identity)) return findUserByPhone(db, identity);
  if (identity.includes('@')) return findUserByEmail(db, identity);
  return findUserByUsername(db, identity);
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
