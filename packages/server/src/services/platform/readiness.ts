/**
 * `/readyz`: whether this process can serve — the database answers and its schema has every
 * migration this version knows. A reason names what is wrong, for the operator reading a 503.
 * Redis is not part of it: while Redis is down every request is still served (counters fall back
 * to the database), and Redis is shared by every instance, so failing readiness for it would take
 * every instance out of the load balancer at once. Its state is in `/healthz` and the
 * `edupass_redis_up` metric instead. `/healthz` says the process is alive, with those details.
 * Where a dependency runs (a host, an address, a port, a driver's message) goes to the log only,
 * since anyone may ask.
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

/** The public reason; the error itself, which may name hosts and ports, is logged. */
const unanswered = (ctx: Context, what: string, error: unknown) => {
  ctx.logger.warn({ err: error }, `readiness: ${what} does not answer`);
  return `${what} does not answer`;
};

const checkDatabase = async (ctx: Context): Promise<string | undefined> => {
  try {
    const have = await withinTime(appliedMigrations(ctx.db), 'the database');
    const missing = Object.keys(migrationsFor(ctx.store.dialect)).filter((name) => !have.has(name));
    // Migrations newer than this version (a rolling upgrade under way) do not make it unready.
    if (missing.length > 0) return `the database schema is behind (missing ${missing.join(', ')}): run edupass migrate`;
    return undefined;
  } catch (error) {
    return unanswered(ctx, 'the database', error);
  }
};

/** Undefined when ready; else why not. */
export const notReadyBecause = (ctx: Context): Promise<string | undefined> => checkDatabase(ctx);

export interface RedisHealth {
  /** `off`: REDIS_URL is not set (counters in the database). */
  state: 'up' | 'down' | 'off';
  /** Why it is down. */
  reason?: string;
}

/** Redis as this process sees it: a ping within the check's time. */
export const redisHealth = async (
  ctx: Pick<Context, 'redis'> & Partial<Pick<Context, 'logger'>>,
): Promise<RedisHealth> => {
  const redis = ctx.redis;
  if (redis === undefined) return { state: 'off' };
  if (!isReady(redis)) return { state: 'down', reason: `connection ${redis.status}` };
  try {
    await withinTime(redis.ping(), 'Redis');
    return { state: 'up' };
  } catch (error) {
    ctx.logger?.warn({ err: error }, 'health: Redis does not answer');
    return { state: 'down', reason: 'Redis does not answer' };
  }
};
