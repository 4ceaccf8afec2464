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

export interface ForgetChannel {
  /** Tells the other processes (a failure is logged: they catch up within their TTL). */
  publish(message: string): void;
  /** Whether forgets are heard: nothing may be remembered while they are not. */
  listening(): boolean;
  close(): Promise<void>;
}

/**
 * A Redis channel on which processes tell each other what to forget (the session cache, the
 * settings cache): a publishing and a listening connection, as a connection that subscribes can do
 * nothing else. `reset` runs when the listening connection closes (forgets sent meanwhile are lost:
 * start again from nothing) and again once it listens.
 */
export const forgetChannel = (
  url: string,
  logger: Logger | undefined,
  purpose: string,
  name: string,
  on: { message: (message: string) => void; reset: () => void },
): ForgetChannel => {
  let listening = false;
  const subscriber = connectRedis(url, logger, purpose);
  const publisher = connectRedis(url, logger, purpose);
  subscriber.on('message', (_channel: string, message: string) => on.message(message));
  subscriber.on('close', () => {
    listening = false;
    on.reset();
  });
  subscriber.on('ready', () => {
    const listen = () => {
      on.reset();
      listening = true;
    };
    subscriber.subscribe(name).then(listen, (error: Error) => {
      logger?.warn({ err: error }, `${purpose}: cannot listen on Redis; reading every time`);
    });
  });
  return {
    publish(message) {
      publisher.publish(name, message).catch((error: Error) => {
        logger?.warn({ err: error }, `${purpose}: cannot tell other processes; they catch up within the TTL`);
      });
    },
    listening: () => listening,
    async close() {
      await Promise.all([subscriber.quit(), publisher.quit()]).catch(() => {});
    },
  };
};
