/**
 * Whether a failure is the network's or the server's rather than the visitor's: no answer came
 * ('offline'), none came in time ('timeout'), or the server failed on its side ('server'). The same call
 * may then work again, so the screens offer a retry; the captcha is blamed only when the captcha itself
 * failed. Duck-typed, so the account SDK's `AuthError`, the captcha SDK's `CaptchaError` (whose outages
 * keep the fetch failure as their cause) and a failed code chunk are all read alike.
 */
import { ClientCode } from '@edupass/protocol';

export type Trouble = 'offline' | 'timeout' | 'server';

interface Failure {
  name?: unknown;
  code?: unknown;
  status?: unknown;
  body?: unknown;
  cause?: unknown;
}

const asFailure = (error: unknown): Failure | undefined =>
  typeof error === 'object' && error !== null ? (error as Failure) : undefined;

/**
 * The TypeError a browser throws for a fetch or a module import that got no answer (Chromium "Failed to
 * fetch", Firefox "NetworkError…", Safari "Load failed"); not any TypeError, which may be a bug of ours.
 */
const unreached = (error: unknown): boolean =>
  error instanceof TypeError && /fetch|network|load failed|import/i.test(error.message);

/** A fetch that got no answer, or was aborted by its own timer (AbortError / TimeoutError). */
const fetchFailure = (cause: unknown): Trouble | undefined => {
  const failure = asFailure(cause);
  if (failure?.name === 'AbortError' || failure?.name === 'TimeoutError') return 'timeout';
  return unreached(cause) ? 'offline' : undefined;
};

const byCode: Partial<Record<number, Trouble>> = {
  [ClientCode.REQUEST_ERROR]: 'offline',
  [ClientCode.REQUEST_TIMEOUT]: 'timeout',
  [ClientCode.SERVICE_UNAVAILABLE]: 'server',
};

export const troubleOf = (error: unknown): Trouble | undefined => {
  const failure = asFailure(error);
  if (failure === undefined) return undefined;
  // A route's code chunk: no cause means it timed out.
  if (failure.name === 'ChunkLoadError') return failure.cause === undefined ? 'timeout' : 'offline';
  // A lazily imported module (the captcha SDK, a sheet) that could not be fetched.
  if (unreached(error)) return 'offline';
  if (typeof failure.status === 'number' && failure.status >= 500) return 'server';
  if (typeof failure.code !== 'number') return undefined;
  const known = byCode[failure.code];
  if (known) return known;
  // The captcha SDK's call that got no answer: CAPTCHA_ERROR without status or body, the fetch failure as cause.
  if (failure.code === ClientCode.CAPTCHA_ERROR && failure.status === undefined && failure.body === undefined) {
    return fetchFailure(failure.cause);
  }
  return undefined;
};

/** The catalogue error whose sentence says what the trouble is. */
export const TROUBLE_TEXT = {
  offline: 'REQUEST_ERROR',
  timeout: 'REQUEST_TIMEOUT',
  server: 'SERVER_ERROR',
} as const satisfies Record<Trouble, string>;
