/**
 * `/readyz`: whether this process can serve — the database answers, its schema has every migration
 * this version knows, and Redis answers when REDIS_URL is set. `/healthz` only says the process
 * is alive. A reason names what is wrong, for the operator reading a 503.
 */
import type { Context } from '../../context.ts';
import { appliedMigrations } from '../../store/migrate.ts';
import { migrationsFor } from '../../store/migrations/index.ts';
import { isReady } from '../../store/redis.ts';

/** A check that has not answered by then has failed: readiness must answer a probe promptly. */
const CHECK_MS = 2_000;

const withinTime = <T>(work: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_MS} ms`)), CHECK_MS).unref(),
    ),
  ]);

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const checkDatabase = async (ctx: Context): Promise<string | undefined> => {
  try {
    const have = await withinTime(appliedMigrations(ctx.db), 'the database');
    const missing = Object.keys(migrationsFor(ctx.store.dialect)).filter((name) => !have.has(name));
    // Migrations newer than this version (a rolling upgrade under way) do not make it unready.
    if (missing.length > 0) return `the database schema is behind (missing ${missing.join(', ')}): run edupass migrate`;
    return undefined;
  } catch (error) {
    return `the database does not answer: ${reasonOf(error)}`;
  }
};

const checkRedis = async (ctx: Context): Promise<string | undefined> => {
  const redis = ctx.redis;
  if (redis === undefined) return undefined;
  if (!isReady(redis)) return `Redis does not answer (connection ${redis.status})`;
  try {
    await withinTime(redis.ping(), 'Redis');
    return undefined;
  } catch (error) {
    return `Redis does not answer: ${reasonOf(error)}`;
  }
};

/** Undefined when ready; else every reason, joined. */
export const notReadyBecause = async (ctx: Context): Promise<string | undefined> => {
  const reasons = (await Promise.all([checkDatabase(ctx), checkRedis(ctx)])).filter(Boolean);
  return reasons.length > 0 ? reasons.join('; ') : undefined;
};
