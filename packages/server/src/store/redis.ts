/**
 * Connections to Redis that fail fast: while Redis is down or slow a command errs at once (no
 * offline queue, a short command timeout) instead of waiting for a reconnect, so callers fall back
 * (counters.ts) or skip (session-cache.ts) and no request waits on Redis. The connection keeps
 * trying to come back by itself, every 2 s at most.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../logger.ts';

export const FAIL_FAST: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1_000,
  commandTimeout: 1_000,
  retryStrategy: (attempt: number) => Math.min(100 * attempt, 2_000),
};

/** One log line per outage, not one per reconnect attempt. */
export const connectRedis = (url: string, logger: Logger | undefined, purpose: string): Redis => {
  const redis = new Redis(url, FAIL_FAST);
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger?.warn({ err: error }, `${purpose}: Redis is unreachable; carrying on without it until it is back`);
  });
  redis.on('ready', () => {
    if (down) logger?.info({}, `${purpose}: Redis is back`);
    down = false;
  });
  return redis;
};

export const isReady = (redis: Redis) => redis.status === 'ready';
