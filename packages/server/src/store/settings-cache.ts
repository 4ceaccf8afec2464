/**
 * Settings that change a few times a year and are read on every sign-in — the products'
 * applications (the OpenID Connect clients), webhook endpoints, captcha policies, product codes and
 * the agreements' versions —
 * remembered per process, so a sign-in does not read them on each of its requests (on PostgreSQL each
 * was a statement and a round trip: six reads of the client per sign-in, three of the others;
 * oidc/statements-per-sign-in.test.ts).
 *
 * What keeps it right:
 * - Every write of these tables goes through its store function, which calls `forgetSettings` once
 *   the write is committed (a write inside a caller's transaction: when that transaction commits,
 *   `forgetAfterCommit`). The kind is dropped at once in this process and, with REDIS_URL set, in
 *   every other process through a Redis channel: a secret changed or an application removed is
 *   refused at once here and as soon as the others hear it.
 * - A read that overlaps a forget of its kind is not remembered (the epoch moved while it ran).
 * - Without Redis, or while the channel is down, another process's change is seen within `ttlMs`
 *   at most (SETTINGS_CACHE_SECONDS); while the channel is down nothing is remembered at all.
 * - Absences are not remembered (an unknown client id is read every time).
 * - Reads inside a transaction read the cache too (they ask settings, not rows they write).
 *
 * A cache belongs to one store (its Kysely instance and that instance's transactions, found by the
 * dialect's adapter they share, as compiled-query.ts does), so test servers in one process each have
 * their own.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../logger.ts';
import { forgetChannel } from './redis.ts';
import type { Database } from './schema.ts';

export type SettingsKind = 'applications' | 'webhooks' | 'captcha' | 'products' | 'agreements';

export interface SettingsCache {
  read<T>(kind: SettingsKind, key: string, load: () => Promise<T>): Promise<T>;
  /** Drops every remembered setting of `kind` here and, with Redis, in every other process. */
  forget(kind: SettingsKind): void;
  close(): Promise<void>;
}

export interface SettingsCacheOptions {
  ttlMs: number;
  now?: () => number;
  redisUrl?: string | undefined;
  logger?: Logger;
}

const CHANNEL = 'edupass:settings:forget';
const KINDS: readonly SettingsKind[] = ['applications', 'webhooks', 'captcha', 'products', 'agreements'];

interface Entry {
  value: unknown;
  until: number;
}

/** Rows handed to every caller are shared: frozen, so no caller changes another's. */
const frozen = <T>(value: T): T => {
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && typeof item === 'object') Object.freeze(item);
  }
  return value !== null && typeof value === 'object' ? Object.freeze(value) : value;
};

export const createSettingsCache = ({
  ttlMs,
  now = Date.now,
  redisUrl,
  logger,
}: SettingsCacheOptions): SettingsCache => {
  const entries = new Map<SettingsKind, Map<string, Entry>>(KINDS.map((kind) => [kind, new Map()]));
  const epochs = new Map<SettingsKind, number>(KINDS.map((kind) => [kind, 0]));

  const drop = (kind: SettingsKind) => {
    epochs.set(kind, (epochs.get(kind) ?? 0) + 1);
    entries.get(kind)?.clear();
  };
  const dropAll = () => {
    for (const kind of KINDS) drop(kind);
  };

  const channel =
    redisUrl === undefined
      ? undefined
      : forgetChannel(redisUrl, logger, 'settings cache', CHANNEL, {
          message: (message) => {
            if (KINDS.includes(message as SettingsKind)) drop(message as SettingsKind);
          },
          reset: dropAll,
        });

  const listening = () => channel === undefined || channel.listening();

  return {
    async read(kind, key, load) {
      const remembered = ttlMs > 0 && listening() ? entries.get(kind)?.get(key) : undefined;
      if (remembered !== undefined && remembered.until > now())
        return remembered.value as Awaited<ReturnType<typeof load>>;
      const started = epochs.get(kind);
      const value = frozen(await load());
      if (value !== undefined && ttlMs > 0 && listening() && epochs.get(kind) === started) {
        entries.get(kind)?.set(key, { value, until: now() + ttlMs });
      }
      return value;
    },
    forget(kind) {
      drop(kind);
      channel?.publish(kind);
    },
    async close() {
      dropAll();
      await channel?.close();
    },
  };
};

const caches = new WeakMap<object, SettingsCache>();
/** Kinds written inside a transaction not yet committed, forgotten again once it is. */
const pending = new WeakMap<object, Set<SettingsKind>>();

const keyOf = (db: Kysely<Database>): object => db.getExecutor().adapter;

/** Makes `cache` the one of `db`'s store (context.ts). */
export const attachSettingsCache = (db: Kysely<Database>, cache: SettingsCache) => caches.set(keyOf(db), cache);

/** A setting of `kind` under `key`: remembered when `db`'s store has a cache, else read. */
export const cachedSetting = <T>(db: Kysely<Database>, kind: SettingsKind, key: string, load: () => Promise<T>) => {
  const cache = caches.get(keyOf(db));
  return cache === undefined ? load() : cache.read(kind, key, load);
};

/**
 * After a write of `kind`: forgets it at once, and inside a transaction again when
 * `forgetAfterCommit` is called with it (a read between the write and the commit sees the old row).
 */
export const forgetSettings = (db: Kysely<Database>, kind: SettingsKind) => {
  caches.get(keyOf(db))?.forget(kind);
  if (db.isTransaction) {
    const kinds = pending.get(db) ?? new Set();
    kinds.add(kind);
    pending.set(db, kinds);
  }
};

/** Once `transaction` has committed (or rolled back): what it wrote is forgotten again. */
export const forgetAfterCommit = (db: Kysely<Database>, transaction: object) => {
  const kinds = pending.get(transaction);
  if (kinds === undefined) return;
  pending.delete(transaction);
  for (const kind of kinds) caches.get(keyOf(db))?.forget(kind);
};

/** Runs `work` in a transaction of its own, then forgets `kind` (the writers that open their own). */
export const writeSettings = async <T>(
  db: Kysely<Database>,
  kind: SettingsKind,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> => {
  try {
    return await work(db);
  } finally {
    forgetSettings(db, kind);
  }
};
