/**
 * The framework's own refusals in the catalogue's wire shape: malformed or oversized bodies, media
 * types, URLs and headers past their limits, requests that take too long to arrive. Node's HTTP
 * parser answers some of these before Fastify sees a request (431, 408, 400), so those are written
 * to the socket here.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ClientCode } from '@edupass/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

/** Longest request target (path and query) taken; a longer one is 414. Node's header limit (16 KiB) covers the rest. */
export const MAX_URL_LENGTH = 8192;
/** Time for a whole request (headers and body) to arrive: a slow sender cannot hold a connection open. */
export const REQUEST_TIMEOUT_MS = 30_000;

const requestError = (message: string, status = 400, clientNumber?: number) =>
  new ApiError('E_1', message, clientNumber, status);

export const uriTooLong = () => requestError(`The URL is longer than ${MAX_URL_LENGTH} characters.`, 414);
const timedOut = () => requestError('The request took too long to arrive.', 408, ClientCode.REQUEST_TIMEOUT);

/** Fastify's own request errors, as catalogue errors with the status HTTP gives them. */
export const fromFastifyError = (error: FastifyError): ApiError | undefined => {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return requestError('The body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_TYPE':
      return requestError('Send the body as application/json.', 415);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return requestError('The body is too large.', 413);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return requestError('The Content-Length does not match the body.');
    default:
      return error.statusCode !== undefined && error.statusCode < 500 ? requestError(error.message) : undefined;
  }
};

/** Routing refusals (a malformed URL, a path segment past `maxParamLength`) that never reach a route. */
const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
  const answer =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? requestError('A segment of the path is too long.')
      : requestError('The URL is malformed.');
  void reply.code(answer.status).send(answer.toWire(request.id));
};

/** Errors of Node's HTTP parser, before any request exists: answered on the socket, which then closes. */
function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? timedOut()
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? requestError('The request headers are too large.', 431)
        : requestError('The request is malformed.');
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(answer.toWire(randomUUID()));
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify options that route the framework's refusals through the catalogue. */
export const frameworkOptions = (requestTimeoutMs = REQUEST_TIMEOUT_MS) =>
  ({
    clientErrorHandler,
    frameworkErrors,
    requestTimeout: requestTimeoutMs,
    // Node checks request timeouts on this interval (30 s by default): a shorter timeout checks more often.
    http: { connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 4))) },
  }) as const;

/** Refuses an overlong URL before any route reads it. */
export const refuseLongUrls = (app: FastifyInstance) => {
  app.addHook('onRequest', function refuseLongUrl(request, _reply, done) {
    done(request.url.length > MAX_URL_LENGTH ? uriTooLong() : undefined);
  });
};
