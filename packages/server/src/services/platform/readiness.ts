/**
 * `/readyz`: whether this process can serve — the database answers, its schema has every migration
 * this version knows, and Redis answers when REDIS_URL is set. `/healthz` only says the process
 * is alive. A reason names what is wrong, for the operator reading a 503; where it runs (a host, an
 * address, a port, a driver's message) goes to the log only, since anyone may ask.
 */
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
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
    const applied = await withinTime(
      sql<{ name: string }>`select name from kysely_migration`.execute(ctx.db),
      'the database',
    );
    const have = new Set(applied.rows.map((row) => row.name));
    const missing = Object.keys(migrationsFor(ctx.store.dialect)).filter((name) => !have.has(name));
    // Migrations newer than this version (a rolling upgrade under way) do not make it unready.
    if (missing.length > 0) return `the database schema is behind (missing ${missing.join(', ')}): run edupass migrate`;
    return undefined;
  } catch (error) {
    return unanswered(ctx, 'the database', error);
  }
};

const checkRedis = async (ctx: Context): Promise<string | undefined> => {
  const redis = ctx.redis;
  if (redis === undefined) return undefined;
  if (!isReady(redis)) return unanswered(ctx, 'Redis', `connection ${redis.status}`);
  try {
    await withinTime(redis.ping(), 'Redis');
    return undefined;
  } catch (error) {
    return unanswered(ctx, 'Redis', error);
  }
};

/** Undefined when ready; else every reason, joined. */
export const notReadyBecause = async (ctx: Context): Promise<string | undefined> => {
  const reasons = (await Promise.all([checkDatabase(ctx), checkRedis(ctx)])).filter(Boolean);
  return reasons.length > 0 ? reasons.join('; ') : undefined;
};
