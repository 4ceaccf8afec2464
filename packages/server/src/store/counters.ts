/**
 * Fixed-window counters for rate limits, shared by every server process: in the database by
 * default, in Redis when REDIS_URL is set.
 */
import { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

export interface Counters {
  /** Counts one hit in the key's window (opened now if none is open); returns the window's count. */
  hit(key: string, windowSeconds: number): Promise<number>;
  /** The current window's count, 0 when none is open. */
  peek(key: string): Promise<number>;
  /** Seconds until the key's window closes, 0 when none is open. */
  ttl(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export const databaseCounters = (db: Kysely<Database>, now: () => number = Date.now): Counters => ({
  async hit(key, windowSeconds) {
    const t = now();
    const expires = t + windowSeconds * 1000;
    const row = await db
      .insertInto('counters')
      .values({ key, count: 1, expires_at: expires })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql`CASE WHEN counters.expires_at <= ${t} THEN 1 ELSE counters.count + 1 END`,
          expires_at: sql`CASE WHEN counters.expires_at <= ${t} THEN ${expires} ELSE counters.expires_at END`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },
  async peek(key) {
    const row = await db
      .selectFrom('counters')
      .select('count')
      .where('key', '=', key)
      .where('expires_at', '>', now())
      .executeTakeFirst();
    return row ? Number(row.count) : 0;
  },
  async ttl(key) {
    const row = await db
      .selectFrom('counters')
      .select('expires_at')
      .where('key', '=', key)
      .where('expires_at', '>', now())
      .executeTakeFirst();
    return row ? Math.ceil((Number(row.expires_at) - now()) / 1000) : 0;
  },
  async reset(key) {
    await db.deleteFrom('counters').where('key', '=', key).execute();
  },
  async close() {},
});

export const redisCounters = (url: string, prefix = 'edupass:'): Counters => {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const k = (key: string) => prefix + key;
  return {
    async hit(key, windowSeconds) {
      const result = await redis.multi().incr(k(key)).expire(k(key), windowSeconds, 'NX').exec();
      const count = result?.[0]?.[1];
      return Number(count);
    },
    async peek(key) {
      return Number((await redis.get(k(key))) ?? 0);
    },
    async ttl(key) {
      return Math.max(0, await redis.ttl(k(key)));
    },
    async reset(key) {
      await redis.del(k(key));
    },
    async close() {
      redis.disconnect();
    },
  };
};
