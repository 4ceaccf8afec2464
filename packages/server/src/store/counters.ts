/**
 * Fixed-window counters for rate limits, shared by every server process: in the database by
 * default, in Redis when REDIS_URL is set (falling back to the database while Redis is down).
 */
import { createHmac, type KeyObject } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import { compiledOnce } from './compiled-query.ts';
import { dialectOf } from './db.ts';
import { isReady } from './redis.ts';
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
   * transaction); two statements in the database.
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

/** One hit: a new window (count 1) when none is open, else one more in the open one; the count after it. */
const hitQuery = compiledOnce(
  (db, key: string, one: number, expires: number, now: number, sameNow: number, sameExpires: number) =>
    db
      .insertInto('counters')
      .values({ key, count: one, expires_at: expires })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql`CASE WHEN counters.expires_at <= ${now} THEN 1 ELSE counters.count + 1 END`,
          expires_at: sql`CASE WHEN counters.expires_at <= ${sameNow} THEN ${sameExpires} ELSE counters.expires_at END`,
        }),
      )
      .returning('count'),
  ['', 0, 0, 0, 0, 0],
);

/**
 * PostgreSQL: two keys hit in one statement, each in the window it asks for (hitQuery's rule, the new
 * window's end the row's own), their rows locked in the order given. `first` is the alongside key,
 * `second` the place: releaseAndResetQuery closes the other windows (the run among them) in its main
 * statement, which PostgreSQL runs before the data-modifying WITH that gives the place back, so both
 * lock the run before the place and cannot deadlock (the other order deadlocked in 68 of 300 pairs
 * run at once; counters.test.ts runs them at once).
 */
const hitPairQuery = compiledOnce(
  (
    db,
    first: string,
    one: number,
    firstExpires: number,
    second: string,
    alsoOne: number,
    secondExpires: number,
    now: number,
    sameNow: number,
  ) =>
    db
      .insertInto('counters')
      .values([
        { key: first, count: one, expires_at: firstExpires },
        { key: second, count: alsoOne, expires_at: secondExpires },
      ])
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql`CASE WHEN counters.expires_at <= ${now} THEN 1 ELSE counters.count + 1 END`,
          expires_at: sql`CASE WHEN counters.expires_at <= ${sameNow} THEN excluded.expires_at ELSE counters.expires_at END`,
        }),
      )
      .returning(['key', 'count']),
  ['', 0, 0, '', 0, 0, 0, 0],
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

/** PostgreSQL: releaseQuery and resetAllQuery in one statement (the release a data-modifying WITH). */
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
      .where(keyIn(db, keys))
      .where('expires_at', '>', open),
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
    const row = (await hitQuery(db, key, 1, expires, t, t, expires)).rows[0];
    if (row === undefined) throw new Error(`counter ${key}: the upsert returned no row`);
    return Number(row.count);
  };
  const peek = async (key: string) => {
    const row = await openWindow(key);
    return row ? Number(row.count) : 0;
  };
  const postgres = dialectOf(db) === 'postgres';
  /** `key` and `alongside` hit in one write: one statement on PostgreSQL, one commit on SQLite. */
  const hitPair = async (key: string, windowSeconds: number, alongside: AlongsideHit): Promise<[number, number]> => {
    if (!postgres || key === alongside.key) {
      // Started in the same turn of the event loop: one transaction, one commit (commit-group.ts).
      return Promise.all([hit(key, windowSeconds), hit(alongside.key, alongside.windowSeconds)]);
    }
    const { rows } = await againAfterDeadlock(() => {
      const t = now();
      return hitPairQuery(
        db,
        alongside.key,
        1,
        t + alongside.windowSeconds * 1000,
        key,
        1,
        t + windowSeconds * 1000,
        t,
        t,
      );
    });
    const counts = new Map(rows.map((row) => [row.key, Number(row.count)]));
    const [count, also] = [counts.get(key), counts.get(alongside.key)];
    if (count === undefined || also === undefined)
      throw new Error(`counters ${key}, ${alongside.key}: no row returned`);
    return [count, also];
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
    // Two statements, the read after the hit has committed: one statement would read the other key
    // as it was when it began, and could miss what another request wrote meanwhile (a lock's failure
    // counted and its place given back between the two), where the hit sees the newest row.
    async hitThenPeek(key, windowSeconds, other, alongside) {
      if (alongside === undefined) {
        const count = await hit(key, windowSeconds);
        return { count, other: await peek(other) };
      }
      const [count, also] = await hitPair(key, windowSeconds, alongside);
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
        await releaseAndResetQuery(db, key, now(), 0, 0, 0, [...resets], 0);
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

const PAUSE_AFTER_FAILURE_MS = 2_000;

/** Only an open window (a key that still exists) is given a hit back, never below 0. */
const RELEASE_SCRIPT =
  "if tonumber(redis.call('get', KEYS[1]) or '0') > 0 then return redis.call('decr', KEYS[1]) end return 0";

/** Counters kept in Redis only: a failed command throws. */
export const redisCounters = (redis: Redis, prefix = 'edupass:'): Counters => {
  const k = (key: string) => prefix + key;
  return {
    async hit(key, windowSeconds) {
      const result = await redis.multi().incr(k(key)).expire(k(key), windowSeconds, 'NX').exec();
      const [error, count] = result?.[0] ?? [new Error('Redis answered no result')];
      if (error) throw error;
      return Number(count);
    },
    async peek(key) {
      return Number((await redis.get(k(key))) ?? 0);
    },
    async peekAll(keys) {
      if (keys.length === 0) return [];
      return (await redis.mget(keys.map(k))).map((count) => Number(count ?? 0));
    },
    async hitThenPeek(key, windowSeconds, other, alongside) {
      const transaction = redis.multi().incr(k(key)).expire(k(key), windowSeconds, 'NX');
      if (alongside !== undefined) {
        transaction.incr(k(alongside.key)).expire(k(alongside.key), alongside.windowSeconds, 'NX');
      }
      const result = await transaction.get(k(other)).exec();
      const error = result === null ? new Error('Redis answered no result') : result.find(([failed]) => failed)?.[0];
      if (error || result === null) throw error;
      const counted = (index: number) => Number(result[index]?.[1] ?? 0);
      return alongside === undefined
        ? { count: counted(0), other: counted(2) }
        : { count: counted(0), other: counted(4), alongside: counted(2) };
    },
    async ttl(key) {
      return Math.max(0, await redis.ttl(k(key)));
    },
    async release(key) {
      await redis.eval(RELEASE_SCRIPT, 1, k(key));
    },
    async reset(key) {
      await redis.del(k(key));
    },
    async releaseAndReset(key, resets) {
      const transaction = redis.multi().eval(RELEASE_SCRIPT, 1, k(key));
      if (resets.length > 0) transaction.del(...resets.map(k));
      const result = await transaction.exec();
      const error = result === null ? new Error('Redis answered no result') : result.find(([failed]) => failed)?.[0];
      if (error) throw error;
    },
    async close() {
      redis.disconnect();
    },
  };
};

/**
 * Redis while it answers, the database while it does not: a limit is never skipped and no request
 * waits on a dead Redis (the connection fails fast, store/redis.ts). Windows counted in one store
 * are not seen in the other, so across an outage a window may start again from 0: the limits then
 * hold per store, the price of not stopping sign-in with Redis.
 */
export const redisWithFallback = (redis: Redis, fallback: Counters, prefix = 'edupass:'): Counters => {
  const primary = redisCounters(redis, prefix);
  // After a failure (a hung Redis times out rather than refusing), Redis is left alone for a moment
  // so each request pays the command timeout once per pause, not once per counter.
  let skipUntil = 0;
  // Until when a window this process counted in the database may still be open.
  let countedInDatabaseUntil = 0;
  const either =
    <A extends unknown[], R>(
      run: (counters: Counters, ...args: A) => Promise<R>,
      windowSeconds?: (...args: A) => number,
    ) =>
    async (...args: A): Promise<R> => {
      if (isReady(redis) && Date.now() >= skipUntil) {
        try {
          return await run(primary, ...args);
        } catch {
          // Down or too slow: this hit is counted in the database instead.
          skipUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
        }
      }
      if (windowSeconds !== undefined) {
        countedInDatabaseUntil = Math.max(countedInDatabaseUntil, Date.now() + windowSeconds(...args) * 1000);
      }
      return run(fallback, ...args);
    };
  const reset = either((c, key: string) => c.reset(key));
  const releaseAndReset = either((c, key: string, resets: readonly string[]) => c.releaseAndReset(key, resets));
  return {
    hit: either(
      (c, key: string, windowSeconds: number) => c.hit(key, windowSeconds),
      (_key, windowSeconds) => windowSeconds,
    ),
    peek: either((c, key: string) => c.peek(key)),
    peekAll: either((c, keys: readonly string[]) => c.peekAll(keys)),
    hitThenPeek: either(
      (c, key: string, windowSeconds: number, other: string, alongside?: AlongsideHit) =>
        c.hitThenPeek(key, windowSeconds, other, alongside),
      (_key, windowSeconds, _other, alongside) => Math.max(windowSeconds, alongside?.windowSeconds ?? 0),
    ),
    ttl: either((c, key: string) => c.ttl(key)),
    release: either((c, key: string) => c.release(key)),
    // A reset clears the database's window too while one this process counted there during an outage
    // may be open, so it does not outlive the outage; otherwise Redis's alone (a sign-in resets its
    // counts: one write fewer). Windows other processes counted there are left to close (a stricter
    // count after a second outage, never a looser one).
    async reset(key) {
      await Promise.all([reset(key), Date.now() < countedInDatabaseUntil ? fallback.reset(key) : undefined]);
    },
    // As reset, for the windows it closes.
    async releaseAndReset(key, resets) {
      await Promise.all([
        releaseAndReset(key, resets),
        Date.now() < countedInDatabaseUntil && resets.length > 0
          ? Promise.all(resets.map((reset) => fallback.reset(reset)))
          : undefined,
      ]);
    },
    async close() {
      redis.disconnect();
    },
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
