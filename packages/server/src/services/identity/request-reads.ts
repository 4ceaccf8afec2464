/**
 * The reads the OpenID Connect provider repeats within one request, made once per request: the
 * provider asks for its client several times while answering (the token endpoint: authentication,
 * the grant's check, the ID token's claims), and the interaction screens and the account's claims
 * read the same user more than once. Each was its own statement (and on PostgreSQL its own
 * round trip): two to three per request, ten per sign-in (oidc/statements-per-sign-in.test.ts).
 *
 * Only within one request (`withRequestReads`): a change made by another request or process is seen
 * by the next request, as before; outside one, every call reads. Across requests, the application is
 * remembered by the store's settings cache (store/settings-cache.ts) and the user by the session
 * cache (services/sessions/cache.ts `readUser`: every change of a user forgets it there).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import { findUserById as readUser } from '../../store/account/users.ts';
import { findApplication as readApplication } from '../../store/identity/applications.ts';
import type { Database } from '../../store/schema.ts';
import type { SessionCache } from '../sessions/cache.ts';

const reads = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/** Runs `work` (one request's handling) with its own memo of the reads below. */
export const withRequestReads = <T>(work: () => T): T => reads.run(new Map(), work);

const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
  const memo = reads.getStore();
  if (memo === undefined) return read();
  let answer = memo.get(key) as Promise<T> | undefined;
  if (answer === undefined) {
    answer = read();
    memo.set(key, answer);
  }
  return answer;
};

/** The application (the provider's client) of `clientId`, read once per request. */
export const findApplication = (db: Kysely<Database>, clientId: string) =>
  once(`application:${clientId}`, () => readApplication(db, clientId));

/** The session caches of stores, found by the dialect's adapter their transactions share (context.ts). */
const userCaches = new WeakMap<object, SessionCache>();

export const attachUserCache = (db: Kysely<Database>, cache: SessionCache) =>
  userCaches.set(db.getExecutor().adapter, cache);

/** The user of `id`, read once per request, and remembered across requests by the session cache. */
export const findUserById = (db: Kysely<Database>, id: number) =>
  once(`user:${id}`, () => {
    const cache = userCaches.get(db.getExecutor().adapter);
    return cache === undefined ? readUser(db, id) : cache.readUser(id, () => readUser(db, id));
  });
