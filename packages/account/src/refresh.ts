/**
 * Getting a usable access token when the store has none (spec §4 "Token state", steps 2 and 3): refresh,
 * else convert the old session cookie, else clear and raise NO_TOKEN.
 *
 * One exchange at a time: per tab through a shared promise, across tabs through a Web Lock. Refresh
 * tokens rotate on every use, so two tabs refreshing at once would burn each other's token; the tab that
 * waited finds the new tokens in the shared cookies instead of asking again. (Chromium can hand the lock
 * on a moment before those cookies reach the waiting tab's `document.cookie`; that tab then asks with the
 * token just rotated, and the server's grace window answers with the same successor.)
 */
import {
  CoreCode,
  convertCookieRoute,
  NO_TOKEN_EXPIRED_MESSAGE,
  NO_TOKEN_MESSAGE,
  refreshTokensRoute,
} from '@edupass/protocol';
import type { AccountClient } from './client.ts';
import { type AuthError, authError, isAuthError } from './errors.ts';
import { lockManager } from './globals.ts';
import { parseTokenSet, UNEXPECTED_TOKENS } from './token-set.ts';
import type { StoredTokens } from './token-store.ts';
import { clearTokens, storeTokens } from './tokens.ts';
import { send } from './transport.ts';

/** Tokens ready to send: an access token and its type. */
export type ReadyTokens = StoredTokens & { access: string; type: string };

/**
 * After a failed exchange, calls within this window get the same failure without a request, unless the
 * stored tokens changed meanwhile (a new sign-in). Keeps a page of failing calls from a refresh storm.
 */
export const EXCHANGE_FAILURE_COOLDOWN_MS = 5_000;

interface Failure {
  at: number;
  error: unknown;
  tokens: StoredTokens;
}

const flights = new WeakMap<AccountClient, Promise<ReadyTokens>>();
const failures = new WeakMap<AccountClient, Failure>();

const sameTokens = (a: StoredTokens, b: StoredTokens) => a.access === b.access && a.refresh === b.refresh;

export const isReady = (tokens: StoredTokens): tokens is ReadyTokens => Boolean(tokens.access && tokens.type);

/** A server refusal (as opposed to a timeout or a network failure, after which the session may be fine). */
const refused = (error: unknown): error is AuthError => isAuthError(error) && error.status !== undefined;

const adopt = (client: AccountClient, data: unknown): ReadyTokens => {
  const tokens = parseTokenSet(data);
  if (!tokens) {
    client.logger.warn(UNEXPECTED_TOKENS, data);
    throw authError('NO_TOKEN', NO_TOKEN_MESSAGE, { body: data });
  }
  storeTokens(client, tokens);
  return { access: tokens.access.token, type: tokens.access.type, refresh: tokens.refresh.token };
};

const exchange = async (client: AccountClient, stale: string | undefined): Promise<ReadyTokens> => {
  const held = client.tokens.get();
  // Someone (another tab, an earlier flight) already replaced the token that failed.
  if (isReady(held) && held.access !== stale) return held;
  const { refresh } = held;
  try {
    const reply = await send(
      client,
      refresh
        ? { route: refreshTokensRoute, body: { refresh_token: refresh } }
        : // The old session cookie travels with the credentials; a leftover access token without its type as Bearer.
          { route: convertCookieRoute, headers: { Authorization: held.access ? `Bearer ${held.access}` : undefined } },
    );
    return adopt(client, reply.data);
  } catch (error) {
    // The session is over: a refresh token the server calls invalid, or any refused conversion.
    if (refresh ? isAuthError(error) && error.code === CoreCode.REFRESH_TOKEN_INVALID : refused(error)) {
      clearTokens(client);
      throw authError('NO_TOKEN', refresh ? NO_TOKEN_EXPIRED_MESSAGE : NO_TOKEN_MESSAGE, { cause: error });
    }
    throw error;
  }
};

/** Runs `task` holding the origin-wide refresh lock, or without it where there are no Web Locks or the wait times out. */
const underLock = async <T>(client: AccountClient, task: () => Promise<T>): Promise<T> => {
  const locks = client.config.crossTab ? lockManager() : undefined;
  if (!locks) return task();
  let started = false;
  try {
    return await locks.request(
      `edupass-refresh:${client.config.env}:${client.config.pid}`,
      { signal: AbortSignal.timeout(client.config.requestTimeout) },
      () => {
        started = true;
        return task();
      },
    );
  } catch (error) {
    // A tab stuck holding the lock must not sign this one out: go ahead alone.
    if (started) throw error;
    return task();
  }
};

/**
 * A usable token set obtained by refresh or conversion. `stale` is an access token the server refused;
 * a stored token equal to it is not reused.
 */
export const obtainTokens = (client: AccountClient, stale?: string): Promise<ReadyTokens> => {
  const running = flights.get(client);
  if (running) return running;
  const failure = failures.get(client);
  if (
    failure &&
    Date.now() - failure.at < EXCHANGE_FAILURE_COOLDOWN_MS &&
    sameTokens(failure.tokens, client.tokens.get())
  ) {
    return Promise.reject(failure.error);
  }
  const flight = underLock(client, () => exchange(client, stale));
  flights.set(client, flight);
  flight.then(
    () => {
      failures.delete(client);
      flights.delete(client);
    },
    (error: unknown) => {
      failures.set(client, { at: Date.now(), error, tokens: client.tokens.get() });
      flights.delete(client);
    },
  );
  return flight;
};

/** Step 1 of the token state: the stored access token when there is one, else `obtainTokens`. */
export const currentTokens = (client: AccountClient): Promise<ReadyTokens> => {
  const held = client.tokens.get();
  return isReady(held) ? Promise.resolve(held) : obtainTokens(client);
};
