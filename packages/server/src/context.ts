/**
 * Everything a service needs, built once from the configuration: the store, counters, delivery,
 * signing keys and the clock. Services are plain functions of (context, input).
 */
import { createHmac, type KeyObject } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Delivery, Logger } from './adapters/delivery.ts';
import { countedDelivery, deliveryFromConfig } from './adapters/delivery-router.ts';
import type { Config } from './config/config.ts';
import { outboxWriter } from './services/codes/dev-outbox.ts';
import { sendsFinished } from './services/codes/sends-after-answer.ts';
import { attachUserCache } from './services/identity/request-reads.ts';
import { createMetrics, type Metrics } from './services/platform/metrics.ts';
import { redisHealth } from './services/platform/readiness.ts';
import { auditChainKey, type Keyring, loadKeyring, serverSecrets } from './services/security/keyring.ts';
import { startSealing } from './services/security/record-keys.ts';
import { createSessionCache, type SessionCache } from './services/sessions/cache.ts';
import { type Counters, databaseCounters, withHashedKeys } from './store/counters.ts';
import { openStore, type Store } from './store/db.ts';
import { migrate } from './store/migrate.ts';
import { connectRedis } from './store/redis.ts';
import { redisWithFallback } from './store/redis-counters.ts';
import type { Database } from './store/schema.ts';
import { seed } from './store/seed.ts';
import { attachSettingsCache, createSettingsCache } from './store/settings-cache.ts';
import type { EventsStore } from './store/usage/events-store.ts';
import { openEventsStore } from './store/usage/events-store-open.ts';

/**
 * The server's keys: the keyring's (services/security/keyring.ts: stored data's keys, kept sealed in
 * the database) and the HS256 keys of access tokens signed before ES256. The symmetric ones are
 * KeyObjects, imported once: node:crypto on Node 24 imports a Buffer key again at every createHmac or
 * createCipheriv, which costs about 17 µs more than the HMAC itself.
 */
export interface Keys extends Keyring {
  /** Links the audit's chains (keyring.ts `auditChainKey`). */
  audit: KeyObject;
  /** HS256 key of access tokens an earlier version signed: verifies, never signs. */
  jwt: CryptoKey;
  /** The previous secret's HS256 key while rotating (JWT_SECRET_PREVIOUS). */
  jwtPrevious: CryptoKey | undefined;
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

const jwtKey = (secret: string) =>
  crypto.subtle.importKey(
    'raw',
    createHmac('sha256', secret).update('jwt').digest(),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );

/** The keyring, and the HS256 keys of the secrets. */
const loadKeys = async (db: Kysely<Database>, config: Config, fresh: boolean, logger: Logger): Promise<Keys> => {
  const secrets = await serverSecrets(db, config);
  const keyring = await loadKeyring(db, secrets, fresh, logger);
  return {
    ...keyring,
    audit: auditChainKey(keyring),
    jwt: await jwtKey(secrets.secret),
    jwtPrevious: secrets.previous === undefined ? undefined : await jwtKey(secrets.previous),
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
  const storeOptions = { poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements };
  const store = openStore(config.databaseUrl, storeOptions);
  try {
    const applied = await migrate(store);
    await seed(store.db, config);
    const now = overrides.now ?? Date.now;
    // A database this start made (its first migration ran now) gets a keyring of random keys.
    const keys = await loadKeys(store.db, config, applied.includes('001-accounts'), logger);
    const redis = config.redisUrl ? connectRedis(config.redisUrl, logger, 'rate-limit counters') : undefined;
    const inDatabase = databaseCounters(store.db, now);
    const counters = withHashedKeys(
      overrides.counters ?? (redis ? redisWithFallback(redis, inDatabase) : inDatabase),
      keys.identifiers,
    );
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
    const settings = createSettingsCache({
      ttlMs: config.settingsCacheSeconds * 1000,
      now,
      redisUrl: config.redisUrl,
      logger,
    });
    attachSettingsCache(store.db, settings);
    attachUserCache(store.db, sessions);
    const reader = config.databaseReadUrl ? openStore(config.databaseReadUrl, storeOptions) : undefined;
    const readDb = reader?.db ?? store.db;
    // Children's records sealed from here on (those stored before: the sweep, housekeeping.ts).
    await startSealing(store.db, keys, { readDb, everyone: config.sealAllRecords });
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
        await settings.close();
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
