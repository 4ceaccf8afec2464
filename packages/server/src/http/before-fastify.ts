/**
 * Requests answered before Fastify sees them (http/remembered-profile.ts, http/reports-before-fastify.ts):
 * a few hot, simple requests whose cost was mostly Fastify's lifecycle (request and reply objects,
 * the hooks, the headers set one by one). What these do not take goes to Fastify unchanged.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { fastifyTrustProxy, type TrustProxy } from '../config/proxy-config.ts';

/** Answers the request and says true, or says false without touching it. */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Puts `answer` in front of Fastify's request listener, asked only while the server takes requests
 * (`taking`: not draining) and is not closing; Fastify hears every request it does not take.
 */
export const answerBeforeFastify = (app: FastifyInstance, taking: () => boolean, answer: EarlyAnswer) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Fastify listens for the server's requests once; it now hears those not answered here.
  const [next] = app.server.listeners('request') as RequestListener[];
  if (next === undefined) return;
  app.server.removeListener('request', next);
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (closing || !taking() || !answer(request, response)) next(request, response);
  });
};

/** Whether requests are logged (LOG_LEVEL info or finer), as Fastify logs each one. */
export const logsRequests = (app: FastifyInstance) =>
  (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') === true;

/**
 * The client's address as Fastify's `request.ip` gives it under TRUST_PROXY (the same trust function,
 * through the same proxy-addr): the peer, or the nearest untrusted address in X-Forwarded-For.
 */
export const clientAddressOf = (trust: TrustProxy): ((request: IncomingMessage) => string | undefined) => {
  const given = fastifyTrustProxy(trust);
  if (given === false) return (request) => request.socket.remoteAddress;
  const trusted = typeof given === 'function' ? given : proxyAddr.compile(given);
  return (request) => proxyAddr(request, trusted);
};

/**
 * The request's child logger (`reqId`), having written Fastify's "incoming request" line for it;
 * the request serializer (http/log-redaction.ts) reads the fields Fastify's request has (`ip`: the
 * client's address, clientAddressOf).
 */
export const logIncoming = (
  app: FastifyInstance,
  request: IncomingMessage,
  reqId: string,
  ip: string | undefined,
): FastifyBaseLogger => {
  const child = app.log.child({ reqId });
  const { socket } = request;
  child.info(
    { req: { method: request.method, url: request.url, host: request.headers.host, ip, socket } },
    'incoming request',
  );
  return child;
};

/** Fastify's "request completed" line. */
export const logCompleted = (log: FastifyBaseLogger, statusCode: number, responseTime: number) =>
  log.info({ res: { statusCode }, responseTime }, 'request completed');
