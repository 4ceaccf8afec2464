/**
 * Errors that mean a service the server needs (the database, Redis) cannot be reached right now:
 * answered as 503 E_10 with a reason and Retry-After, never as a 500, so clients and the proxy
 * retry rather than report a bug.
 */
import { ApiError } from '../errors.ts';

/** Seconds a client is told to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** PostgreSQL: connection exceptions (class 08), shutting down / starting (57P0x), too many connections. */
const isPostgresUnavailable = (code: string) =>
  code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code);

/** A statement prepared before a rolling upgrade changed its table's columns (store/prepared-statements.ts). */
const SCHEMA_CHANGED = /cached plan must not change result type/;

const POOL_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error/,
];

const isRedisError = (error: Error) =>
  error.name === 'MaxRetriesPerRequestError' ||
  /enableOfflineQueue options is false|Connection is closed|Command timed out/.test(error.message);

const causes = function* (error: unknown) {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    yield current;
    current = current.cause;
  }
};

/** The service that is down, when the error says one is. */
export const unavailableService = (error: unknown): string | undefined => {
  for (const e of causes(error)) {
    const code = (e as { code?: unknown }).code;
    if (isRedisError(e)) return 'Redis';
    if (typeof code === 'string' && isPostgresUnavailable(code)) return 'database';
    if (code === 'SQLITE_BUSY') return 'database (busy)';
    if (POOL_MESSAGES.some((pattern) => pattern.test(e.message))) return 'database';
    if (SCHEMA_CHANGED.test(e.message)) return 'database (its schema was just upgraded)';
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'database or another service it needs';
  }
  return undefined;
};

export const serviceUnavailable = (service: string) =>
  new ApiError('E_10', `The ${service} is unavailable. Try again in a few seconds.`);
