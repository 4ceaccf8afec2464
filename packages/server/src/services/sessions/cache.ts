/**
 * Live sessions remembered for a few seconds, so a signed-in call does not read the database every
 * time (the read of session + user was half the CPU of a profile read in bench/server).
 *
 * What keeps it right:
 * - Every change to a user row or a session goes through `forgetUser` / `forgetSession` (see
 *   services/account/users.ts and tokens.ts), which drop the entries at once in this process and, when
 *   REDIS_URL is set, in every other process through a Redis channel.
 * - A read that overlaps a forget is not remembered (the epoch moved while it ran), so a row read
 *   just before a change cannot be stored after the change dropped it.
 * - Without Redis, or while the channel is down, another process's change is seen within `ttlMs`
 *   at most; while the channel is down nothing is remembered at all.
 * - Only live sessions are remembered: an ended or unknown session is read every time. A new one is
 *   remembered from its start, with the user its insert read back in the same statement or unit
 *   (tokens.ts `startSession` passes that write to `read` as its load), once that write committed.
 * - Users are also remembered by id (`readUser`: the OpenID Connect provider's account, read by each
 *   request of a product's sign-in), under the same forgets: a user's change or block drops them.
 */
import type { Logger } from '../../adapters/delivery.ts';
import { forgetChannel } from '../../store/redis.ts';
import type { User } from '../../store/schema.ts';

export interface SessionCache {
  /** The user of a live session: from memory when read within the TTL, else from `load`. */
  read(sessionId: string, load: () => Promise<User | undefined>): Promise<User | undefined>;
  /** The user of `userId`: from memory when read within the TTL, else from `load` (unknown: not kept). */
  readUser(userId: number, load: () => Promise<User | undefined>): Promise<User | undefined>;
  /** The user of a live session when remembered and still within the TTL, without reading anything. */
  peek(sessionId: string): User | undefined;
  /** The user row changed or their sessions ended: drop what is remembered of them everywhere. */
  forgetUser(userId: number): void;
  /** One session ended. */
  forgetSession(sessionId: string): void;
  close(): Promise<void>;
}

export interface SessionCacheOptions {
  ttlMs: number;
  /** Most sessions remembered at once; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
  /** Shares forgets with the other server processes. */
  redisUrl?: string | undefined;
  logger?: Logger;
}

const CHANNEL = 'edupass:sessions:forget';

interface Entry {
  user: User;
  until: number;
}

export const createSessionCache = ({
  ttlMs,
  maxEntries = 10_000,
  now = Date.now,
  redisUrl,
  logger,
}: SessionCacheOptions): SessionCache => {
  const entries = new Map<string, Entry>();
  const sessionsOf = new Map<number, Set<string>>();
  const users = new Map<number, Entry>();
  let epoch = 0;

  const drop = (sessionId: string) => {
    const entry = entries.get(sessionId);
    if (entry === undefined) return;
    entries.delete(sessionId);
    const ids = sessionsOf.get(entry.user.id);
    ids?.delete(sessionId);
    if (ids?.size === 0) sessionsOf.delete(entry.user.id);
  };
  const dropUser = (userId: number) => {
    epoch++;
    users.delete(userId);
    for (const sessionId of sessionsOf.get(userId) ?? []) entries.delete(sessionId);
    sessionsOf.delete(userId);
  };
  const dropSession = (sessionId: string) => {
    epoch++;
    drop(sessionId);
  };
  const dropAll = () => {
    epoch++;
    entries.clear();
    sessionsOf.clear();
    users.clear();
  };

  const remember = (sessionId: string, user: User) => {
    drop(sessionId);
    if (entries.size >= maxEntries) drop(entries.keys().next().value as string);
    entries.set(sessionId, { user, until: now() + ttlMs });
    const ids = sessionsOf.get(user.id);
    if (ids === undefined) sessionsOf.set(user.id, new Set([sessionId]));
    else ids.add(sessionId);
  };

  const channel =
    redisUrl === undefined
      ? undefined
      : forgetChannel(redisUrl, logger, 'session cache', CHANNEL, {
          message: (message) => {
            const [kind, id] = [message.slice(0, 2), message.slice(2)];
            if (kind === 'u:') dropUser(Number(id));
            else if (kind === 's:') dropSession(id);
          },
          reset: dropAll,
        });
  const broadcast = (message: string) => channel?.publish(message);
  // With Redis, nothing is remembered until the channel is listened to.
  const listening = () => channel === undefined || channel.listening();

  const peek = (sessionId: string) => {
    const entry = ttlMs > 0 && listening() ? entries.get(sessionId) : undefined;
    return entry !== undefined && entry.until > now() ? entry.user : undefined;
  };

  return {
    peek,
    async read(sessionId, load) {
      const known = peek(sessionId);
      if (known !== undefined) return known;
      const started = epoch;
      const user = await load();
      if (user === undefined) drop(sessionId);
      else if (ttlMs > 0 && listening() && epoch === started) remember(sessionId, user);
      return user;
    },
    async readUser(userId, load) {
      const entry = ttlMs > 0 && listening() ? users.get(userId) : undefined;
      if (entry !== undefined && entry.until > now()) return entry.user;
      const started = epoch;
      const user = await load();
      if (user === undefined) users.delete(userId);
      else if (ttlMs > 0 && listening() && epoch === started) {
        users.delete(userId);
        if (users.size >= maxEntries) users.delete(users.keys().next().value as number);
        users.set(userId, { user, until: now() + ttlMs });
      }
      return user;
    },
    forgetUser(userId) {
      dropUser(userId);
      broadcast(`u:${userId}`);
    },
    forgetSession(sessionId) {
      dropSession(sessionId);
      broadcast(`s:${sessionId}`);
    },
    async close() {
      dropAll();
      await channel?.close();
    },
  };
};
