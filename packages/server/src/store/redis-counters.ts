/**
 * The counters (counters.ts) in Redis, and Redis with the database behind it while Redis is down.
 */
import type { Redis } from 'ioredis';
import type { AlongsideHit, Counters } from './counters.ts';
import { isReady } from './redis.ts';

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
