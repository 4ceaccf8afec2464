/**
 * Fixed-window counters for rate limits, shared by every server process: in the database by
 * default, in Redis when REDIS_URL is set (redis-counters.ts: falling back to the database while
 * Redis is down). On PostgreSQL the table is UNLOGGED (migration 063): a write of counters alone
 * commits without waiting for a WAL sync.
 */
import { createHmac, type KeyObject } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { compiledOnce } from './compiled-query.ts';
import { dialectOf } from './db.ts';
import type { Database } from './schema.ts';

/** A key hit beside another, in its own window (`hitThenPeek`'s `alongside`). */
export interface AlongsideHit {
  key: string;
  windowSeconds: number;
}

export interface Counters {
  /** Counts one hit in the key's window (opened now if none is open); returns the window's count. */
  hit(key: string, windowSeconds: number): Promise<number>;
  /** The current window's count, 0 when none is open. */
  peek(key: string): Promise<number>;
  /** Each key's `peek`, in the keys' order, read at once (one statement, one Redis round trip). */
  peekAll(keys: readonly string[]): Promise<number[]>;
  /**
   * `hit(key, windowSeconds)` and then `peek(other)`, what the peek reads written no earlier than the
   * hit: a lock's place taken and then its failures read (services/security/rate-limits.ts). With
   * `alongside`, that key is hit too, in the same write (the captcha gate's count of the account's run
   * of sign-ins, taken with the lock's place), and its count answered. One round trip in Redis (a
   * transaction); one statement on PostgreSQL, two in one commit on SQLite.
   */
  hitThenPeek(
    key: string,
    windowSeconds: number,
    other: string,
    alongside?: AlongsideHit,
  ): Promise<{ count: number; other: number; alongside?: number }>;
  /** Seconds until the key's window closes, 0 when none is open. */
  ttl(key: string): Promise<number>;
  /** Gives one hit of the open window back (an attempt that turned out not to count); none when closed. */
  release(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  /**
   * `release(key)` and `reset` of each of `resets`, together: a right password's place under its lock
   * given back and the counts it ends (services/security/rate-limits.ts). One statement on PostgreSQL,
   * one transaction in Redis; on SQLite two statements in one commit.
   */
  releaseAndReset(key: string, resets: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

// Every rate limit and risk check runs these (a password sign-in about a dozen times): compiled once
// (compiled-query.ts).
const openWindowQuery = compiledOnce(
  (db, key: string, now: number) =>
    db.selectFrom('counters').select(['count', 'expires_at']).where('key', '=', key).where('expires_at', '>', now),
  ['', 0],
);

/** A row of countRows: the key, what it adds to the count, and the end of the window it opens. */
type CountRow = [key: string, adds: number, expires: number];

/**
 * Keys counted in one statement, each adding its own number to its open window, or opening a new one
 * (with the row's own end) where its window is closed; each answers its count and window after, rows
 * locked in the order given. A key that adds 0 and opens a window already closed (end 0) is only read:
 * its newest committed row, which ON CONFLICT finds even when it was written after the statement began
 * (where a plain read in the same statement sees its snapshot's), or a closed row when it has none.
 * One row is a hit; two and three are PostgreSQL's `hitThenPeek` without and with its alongside key.
 */
const countRows = (db: Kysely<Database>, rows: CountRow[], now: number, sameNow: number) =>
  db
    .insertInto('counters')
    .values(rows.map(([key, count, expires_at]) => ({ key, count, expires_at })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`CASE WHEN counters.expires_at <= ${now} THEN excluded.count ELSE counters.count + excluded.count END`,
        expires_at: sql`CASE WHEN counters.expires_at <= ${sameNow} THEN excluded.expires_at ELSE counters.expires_at END`,
      }),
    )
    .returning(['key', 'count', 'expires_at']);

/** One hit: a new window (count 1) when none is open, else one more in the open one; the count after it. */
const hitQuery = compiledOnce(
  (db, key: string, one: number, expires: number, now: number, sameNow: number) =>
    countRows(db, [[key, one, expires]], now, sameNow),
  ['', 0, 0, 0, 0],
);
const countTwoQuery = compiledOnce(
  (db, k1: string, a1: number, e1: number, k2: string, a2: number, e2: number, now: number, sameNow: number) =>
    countRows(
      db,
      [
        [k1, a1, e1],
        [k2, a2, e2],
      ],
      now,
      sameNow,
    ),
  ['', 0, 0, '', 0, 0, 0, 0],
);
const countThreeQuery = compiledOnce(
  (
    db,
    ...[k1, a1, e1, k2, a2, e2, k3, a3, e3, now, sameNow]: [...CountRow, ...CountRow, ...CountRow, number, number]
  ) =>
    countRows(
      db,
      [
        [k1, a1, e1],
        [k2, a2, e2],
        [k3, a3, e3],
      ],
      now,
      sameNow,
    ),
  ['', 0, 0, '', 0, 0, '', 0, 0, 0, 0],
);

/**
 * The row's key is one of `keys`, whatever their number: the keys are one parameter, an array on
 * PostgreSQL and a JSON array on SQLite (`keysParameter`), so one compiled statement serves every
 * count, and each key is looked up by the primary key.
 */
const keyIn = (db: Kysely<Database>, keys: string | string[]) =>
  dialectOf(db) === 'postgres'
    ? sql<boolean>`key = any(cast(${keys} as text[]))`
    : sql<boolean>`key in (select value from json_each(${keys}))`;

/** `keys` as keyIn's parameter on `db`. */
const keysParameter = (postgres: boolean, keys: readonly string[]) => (postgres ? [...keys] : JSON.stringify(keys));

/** Several keys' open windows in one statement. */
const openWindowsQuery = compiledOnce(
  (db, keys: string | string[], now: number) =>
    db.selectFrom('counters').select(['key', 'count']).where(keyIn(db, keys)).where('expires_at', '>', now),
  ['', 0],
);

const releaseQuery = compiledOnce(
  (db, key: string, now: number, zero: number) =>
    db
      .updateTable('counters')
      .set({ count: sql`count - 1` })
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .where('count', '>', zero),
  ['', 0, 0],
);

/**
 * A reset closes the key's window rather than deleting its row: a closed window reads and counts as
 * no window at all (every query above asks `expires_at` about the clock), whatever a process's clock
 * says, and the row is swept with the other expired ones (expired-rows.ts). A sign-in hits its lock
 * and resets it each time: kept in place, the row is updated twice in its table alone, where an
 * insert and a delete each changed the table and the key's index (on SQLite a quarter less time for
 * the pair). A row reset already is left alone.
 */
const resetQuery = compiledOnce(
  (db, zero: number, closed: number, key: string, open: number) =>
    db
      .updateTable('counters')
      .set({ count: zero, expires_at: closed })
      .where('key', '=', key)
      .where('expires_at', '>', open),
  [0, 0, '', 0],
);

/** Several keys' windows closed in one statement (SQLite; PostgreSQL closes them in releaseAndResetQuery). */
const resetAllQuery = compiledOnce(
  (db, zero: number, closed: number, keys: string | string[], open: number) =>
    db
      .updateTable('counters')
      .set({ count: zero, expires_at: closed })
      .where(keyIn(db, keys))
      .where('expires_at', '>', open),
  [0, 0, '', 0],
);

/**
 * PostgreSQL: releaseQuery and resetAllQuery in one statement (the release a data-modifying WITH). The
 * windows closed are locked first, in the byte order of their keys, and the place given back after
 * (PostgreSQL runs a WITH the main statement does not read once that has finished): the order in which
 * `hitThenPeek` takes the same rows, so that neither waits for a row the other holds while holding one
 * it needs (in the other order, 68 of 300 pairs run at once deadlocked; counters.test.ts runs them).
 */
const releaseAndResetQuery = compiledOnce(
  (db, key: string, now: number, zero: number, none: number, closed: number, keys: string[], open: number) =>
    db
      .with('released', (w) =>
        w
          .updateTable('counters')
          .set({ count: sql`count - 1` })
          .where('key', '=', key)
          .where('expires_at', '>', now)
          .where('count', '>', zero)
          .returning('key'),
      )
      .updateTable('counters')
      .set({ count: none, expires_at: closed })
      .where('key', 'in', (eb) =>
        eb
          .selectFrom('counters')
          .select('key')
          .where(keyIn(db, keys))
          .where('expires_at', '>', open)
          .orderBy(sql`key collate "C"`)
          .forUpdate(),
      ),
  ['', 0, 0, 0, 0, [], 0],
);

/**
 * Runs a PostgreSQL statement again when it was a deadlock's victim (`40P01`: rolled back whole, so
 * nothing of it was counted). A sign-in's two rows can meet a statement that locks them in the other
 * order, the hourly sweep deleting both once expired; PostgreSQL then cancels one of the two.
 */
const againAfterDeadlock = async <T>(run: () => Promise<T>, tries = 3): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= tries || (error as { code?: unknown }).code !== '40P01') throw error;
    }
  }
};

export const databaseCounters = (db: Kysely<Database>, now: () => number = Date.now): Counters => {
  /** The key's window while it is open. */
  const openWindow = async (key: string) => (await openWindowQuery(db, key, now())).rows[0];
  const hit = async (key: string, windowSeconds: number) => {
    const t = now();
    const expires = t + windowSeconds * 1000;
    const row = (await hitQuery(db, key, 1, expires, t, t)).rows[0];
    if (row === undefined) throw new Error(`counter ${key}: the upsert returned no row`);
    return Number(row.count);
  };
  const peek = async (key: string) => {
    const row = await openWindow(key);
    return row ? Number(row.count) : 0;
  };
  const postgres = dialectOf(db) === 'postgres';
  /**
   * PostgreSQL: `key` hit, `alongside` with it, and `other` read, in one statement (countRows: the read
   * finds the newest row of `other`, written no earlier than whatever the hit's row shows). The rows are
   * locked `other` and `alongside` first, in the byte order of their keys, and `key` last, as
   * releaseAndResetQuery takes them; a statement that takes them in another order (the sweep deleting
   * expired rows) may deadlock with it, and the one cancelled runs again.
   */
  const countThenRead = async (key: string, windowSeconds: number, other: string, alongside?: AlongsideHit) => {
    const t = now();
    const first: CountRow[] = [[other, 0, 0]];
    if (alongside) first.push([alongside.key, 1, t + alongside.windowSeconds * 1000]);
    first.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const [a, b] = first as [CountRow, CountRow?];
    const place: CountRow = [key, 1, t + windowSeconds * 1000];
    const { rows } = await againAfterDeadlock(() =>
      b === undefined ? countTwoQuery(db, ...a, ...place, t, t) : countThreeQuery(db, ...a, ...b, ...place, t, t),
    );
    const counts = new Map(rows.map((row) => [row.key, Number(row.expires_at) > t ? Number(row.count) : 0]));
    const [count, read, also] = [counts.get(key), counts.get(other), alongside && counts.get(alongside.key)];
    if (count === undefined || read === undefined || (alongside && also === undefined))
      throw new Error(`counters ${key}, ${other}: no row returned`);
    return { count, other: read, ...(alongside ? { alongside: also } : {}) };
  };
  return {
    hit,
    peek,
    async peekAll(keys) {
      if (keys.length === 0) return [];
      const { rows } = await openWindowsQuery(db, keysParameter(postgres, keys), now());
      const counts = new Map(rows.map((row) => [row.key, Number(row.count)]));
      return keys.map((key) => counts.get(key) ?? 0);
    },
    // On SQLite the hit and then the read, in one commit (commit-group.ts); on PostgreSQL one statement
    // (countThenRead): a plain read beside the hit would read the other key as it was when the statement
    // began, and could miss what another request wrote meanwhile (a lock's failure counted and its place
    // given back between the two), where the hit sees the newest row.
    async hitThenPeek(key, windowSeconds, other, alongside) {
      const keys = new Set([key, other, alongside?.key ?? key]);
      if (postgres && keys.size === (alongside ? 3 : 2)) return countThenRead(key, windowSeconds, other, alongside);
      if (alongside === undefined) {
        const count = await hit(key, windowSeconds);
        return { count, other: await peek(other) };
      }
      // Started in the same turn of the event loop: one transaction, one commit (commit-group.ts).
      const [count, also] = await Promise.all([hit(key, windowSeconds), hit(alongside.key, alongside.windowSeconds)]);
      return { count, other: await peek(other), alongside: also };
    },
    async ttl(key) {
      const row = await openWindow(key);
      return row ? Math.ceil((Number(row.expires_at) - now()) / 1000) : 0;
    },
    async release(key) {
      await releaseQuery(db, key, now(), 0);
    },
    async reset(key) {
      await resetQuery(db, 0, 0, key, 0);
    },
    async releaseAndReset(key, resets) {
      if (postgres) {
        await againAfterDeadlock(() => releaseAndResetQuery(db, key, now(), 0, 0, 0, [...resets], 0));
        return;
      }
      // Started in the same turn of the event loop: one transaction, one commit (commit-group.ts).
      await Promise.all([
        releaseQuery(db, key, now(), 0),
        resets.length === 0 ? undefined : resetAllQuery(db, 0, 0, keysParameter(postgres, resets), 0),
      ]);
    },
    async close() {},
  };
};

/**
 * The counters with each key past its first part kept as an HMAC under `key`: `code-day:13900001111`
 * is counted as `code-day:<HMAC>`, so the counters (the database's table or Redis) hold no one's phone,
 * address or username, while the same key still counts in the same window on every process.
 */
export const withHashedKeys = (counters: Counters, key: KeyObject): Counters => {
  const hashed = (name: string) => {
    const colon = name.indexOf(':');
    const subject = colon < 0 ? name : name.slice(colon + 1);
    const digest = createHmac('sha256', key).update(subject).digest('base64url').slice(0, 27);
    return colon < 0 ? digest : `${name.slice(0, colon)}:${digest}`;
  };
  return {
    hit: (name, windowSeconds) => counters.hit(hashed(name), windowSeconds),
    peek: (name) => counters.peek(hashed(name)),
    peekAll: (names) => counters.peekAll(names.map(hashed)),
    hitThenPeek: (name, windowSeconds, other, alongside) =>
      counters.hitThenPeek(
        hashed(name),
        windowSeconds,
        hashed(other),
        alongside === undefined ? undefined : { ...alongside, key: hashed(alongside.key) },
      ),
    ttl: (name) => counters.ttl(hashed(name)),
    release: (name) => counters.release(hashed(name)),
    reset: (name) => counters.reset(hashed(name)),
    releaseAndReset: (name, resets) => counters.releaseAndReset(hashed(name), resets.map(hashed)),
    close: () => counters.close(),
  };
};
