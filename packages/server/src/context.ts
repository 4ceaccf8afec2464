/**
 * Everything a service needs, built once from the configuration: the store, counters, delivery,
 * signing keys and the clock. Services are plain functions of (context, input).
 */
import { createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Delivery, Logger } from './adapters/delivery.ts';
import { countedDelivery, deliveryFromConfig } from './adapters/delivery-router.ts';
import type { Config } from './config/config.ts';
import { resealVendorKeys } from './services/captcha/vendor-keys.ts';
import { outboxWriter } from './services/codes/dev-outbox.ts';
import { sendsFinished } from './services/codes/sends-after-answer.ts';
import { createMetrics, type Metrics } from './services/platform/metrics.ts';
import { redisHealth } from './services/platform/readiness.ts';
import { createSessionCache, type SessionCache } from './services/sessions/cache.ts';
import { settingOrCreate } from './store/admin/settings.ts';
import { type Counters, databaseCounters, redisWithFallback } from './store/counters.ts';
import { openStore, type Store } from './store/db.ts';
import { migrate } from './store/migrate.ts';
import { connectRedis } from './store/redis.ts';
import type { Database } from './store/schema.ts';
import { seed } from './store/seed.ts';
import type { EventsStore } from './store/usage/events-store.ts';
import { openEventsStore } from './store/usage/events-store-open.ts';

/**
 * The keys the server derives from its signing secret. The symmetric ones are KeyObjects, imported
 * once: node:crypto on Node 24 imports a Buffer key again at every createHmac or createCipheriv,
 * which costs about 17 µs more than the HMAC itself.
 */
export interface Keys {
  /** HS256 key for access tokens. */
  jwt: CryptoKey;
  /** The previous secret's key while rotating (JWT_SECRET_PREVIOUS): verifies, never signs. */
  jwtPrevious: CryptoKey | undefined;
  /** Derives refresh-token successors, so a retried refresh gets the same answer. */
  refresh: KeyObject;
  /** Keys the hashes of one-time codes and tickets. */
  codes: KeyObject;
  /**
   * AES-256-GCM key sealing secrets set in the console (captcha vendor keys) in the database. Derived
   * from the signing secret: changing JWT_SECRET without naming the old one in JWT_SECRET_PREVIOUS
   * makes them unreadable, and they must be entered again.
   */
  settings: KeyObject;
  /** The previous secret's sealing key: opens values sealed before a rotation (resealed at start). */
  settingsPrevious: KeyObject | undefined;
}

export interface Context {
  config: Config;
  db: Kysely<Database>;
  /** For the console's dashboard queries: DATABASE_READ_URL's replica when set, else `db`. */
  readDb: Kysely<Database>;
  store: Store;
  /** Usage events and monitor beacons: the accounts database, or ClickHouse (USAGE_DATABASE_URL). */
  events: EventsStore;
  counters: Counters;
  /** The counters' Redis connection when REDIS_URL is set (readiness asks it). */
  redis: Redis | undefined;
  metrics: Metrics;
  /** Live sessions remembered for a moment; every user or session change must forget through it. */
  sessions: SessionCache;
  delivery: Delivery;
  keys: Keys;
  logger: Logger;
  now: () => number;
  close(): Promise<void>;
}

const derive = (secret: string, purpose: string) => createHmac('sha256', secret).update(purpose).digest();
const derivedKey = (secret: string, purpose: string) => createSecretKey(derive(secret, purpose));

const jwtKey = (secret: string) =>
  crypto.subtle.importKey('raw', derive(secret, 'jwt'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
const settingsKey = (secret: string) =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'edupass', 'console settings: sealed values v1', 32)));

/**
 * Keys derived from the signing secret: JWT_SECRET (or its file), else — development only, config.ts
 * refuses production without it — a secret generated once and kept in the database.
 */
const loadKeys = async (db: Kysely<Database>, config: Config): Promise<Keys> => {
  const secret = config.jwtSecret ?? (await settingOrCreate(db, 'secret', () => randomBytes(48).toString('base64url')));
  const previous = config.jwtSecretPrevious;
  return {
    jwt: await jwtKey(secret),
    jwtPrevious: previous === undefined ? undefined : await jwtKey(previous),
    refresh: derivedKey(secret, 'refresh'),
    codes: derivedKey(secret, 'codes'),
    settings: settingsKey(secret),
    settingsPrevious: previous === undefined ? undefined : settingsKey(previous),
  };
};

export interface ContextOverrides {
  delivery?: Delivery;
  now?: () => number;
  /** Counters other than the configuration's (tests: Redis counters under a key prefix of their own). */
  counters?: Counters;
}

export const createContext = async (
  config: Config,
  logger: Logger,
  overrides: ContextOverrides = {},
): Promise<Context> => {
  const store = openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    await migrate(store);
    await seed(store.db, config);
    const now = overrides.now ?? Date.now;
    const redis = config.redisUrl ? connectRedis(config.redisUrl, logger, 'rate-limit counters') : undefined;
    const inDatabase = databaseCounters(store.db, now);
    const counters = overrides.counters ?? (redis ? redisWithFallback(redis, inDatabase) : inDatabase);
    const keys = await loadKeys(store.db, config);
    const metrics = createMetrics();
    metrics.sources.pool = store.poolStats;
    if (redis !== undefined)
      metrics.sources.redisUp = async () => ((await redisHealth({ redis })).state === 'up' ? 1 : 0);
    const delivery = countedDelivery(
      overrides.delivery ?? deliveryFromConfig(config, outboxWriter(store.db), logger, now),
      config,
      metrics,
    );
    const sessions = createSessionCache({
      ttlMs: config.sessionCacheSeconds * 1000,
      now,
      redisUrl: config.redisUrl,
      logger,
    });
    await resealVendorKeys({ db: store.db, keys, logger, now });
    const reader = config.databaseReadUrl
      ? openStore(config.databaseReadUrl, { poolSize: config.databasePoolSize })
      : undefined;
    const readDb = reader?.db ?? store.db;
    const events = await openEventsStore(config, store.db, readDb, logger, now);
    return {
      config,
      db: store.db,
      readDb,
      store,
      events,
      counters,
      redis,
      metrics,
      sessions,
      delivery,
      keys,
      logger,
      now,
      async close() {
        await sessions.close();
        await sendsFinished(delivery);
        await delivery.close?.();
        await counters.close();
        await events.close();
        await reader?.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
};
