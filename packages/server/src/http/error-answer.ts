/**
 * The answer to an error a route threw: the catalogue's status and wire body, Retry-After where the
 * client is to wait, and a log line for what is not the client's doing. The error handler (app.ts)
 * sends it, and so do the requests answered before Fastify (http/reports-before-fastify.ts).
 */
import type { WireError } from '@edupass/protocol';
import type { FastifyBaseLogger, FastifyError } from 'fastify';
import { ApiError, RefusedForNow, RetryLater } from '../errors.ts';
import { fromFastifyError } from './framework-errors.ts';
import { RETRY_AFTER_SECONDS, serviceUnavailable, unavailableService } from './unavailable.ts';

export interface ErrorAnswer {
  status: number;
  /** Headers besides the ones every JSON answer gets. */
  headers: Record<string, string>;
  body: WireError;
}

export const errorAnswer = (error: unknown, log: FastifyBaseLogger, requestId: string): ErrorAnswer => {
  const down = error instanceof ApiError ? undefined : unavailableService(error);
  if (down !== undefined) {
    log.warn({ err: error }, `${down} unavailable`);
    return {
      status: 503,
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      body: serviceUnavailable(down).toWire(requestId),
    };
  }
  const known =
    error instanceof ApiError ? error : error instanceof Error ? fromFastifyError(error as FastifyError) : undefined;
  if (!known) {
    log.error({ err: error }, 'unhandled error');
    return { status: 500, headers: {}, body: new ApiError('E_3').toWire(requestId) };
  }
  const waits = known instanceof RetryLater || known instanceof RefusedForNow;
  return {
    status: known.status,
    headers: waits ? { 'retry-after': String(known.retryAfterSeconds) } : {},
    body: known.toWire(requestId),
  };
};
