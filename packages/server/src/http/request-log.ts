/**
 * The request log: one line per request, written when it is answered, as an access log is. The line
 * ("request completed") holds the request id (`reqId`), the request (method, URL with bearer values
 * redacted, host, client address and port: http/log-redaction.ts), the status and the time taken;
 * a request that failed while answering is "request errored" at error, with the error. The line a
 * request writes as it arrives ("incoming request") is at debug: LOG_LEVEL=debug shows a request
 * read and never answered.
 *
 * Fastify writes both through `RequestLog` (its `logController`); the answers before Fastify
 * (http/before-fastify.ts) write the same lines with `logArrived` and `logAnswered`.
 */
import type { IncomingMessage } from 'node:http';
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';

export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Whether requests are logged at `level` (`info`: as answered; `debug`: as they arrive too). */
export const logsRequests = (app: FastifyInstance, level: 'info' | 'debug' = 'info') =>
  (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) === true;

/**
 * A request answered before Fastify, as the request serializer (http/log-redaction.ts) reads it: the
 * fields Fastify's request has (`ip`: the client's address, as clientAddressOf gives it).
 */
const requestOf = (request: IncomingMessage, ip: string | undefined) => ({
  method: request.method,
  url: request.url,
  originalUrl: request.url,
  host: request.headers.host,
  ip,
  socket: request.socket,
});

/**
 * RequestLog's "incoming request" line for a request answered before Fastify, with its request id
 * (`reqId`, as Fastify's child logger binds it; written in the line rather than through a child
 * logger per request, which cost as much as the line).
 */
export const logArrived = (log: FastifyBaseLogger, request: IncomingMessage, reqId: string, ip: string | undefined) =>
  log.debug({ reqId, req: requestOf(request, ip) }, 'incoming request');

/** RequestLog's "request completed" line for a request answered before Fastify. */
export const logAnswered = (
  log: FastifyBaseLogger,
  request: IncomingMessage,
  reqId: string,
  ip: string | undefined,
  statusCode: number,
  responseTime: number,
) => log.info({ reqId, req: requestOf(request, ip), res: { statusCode }, responseTime }, 'request completed');
