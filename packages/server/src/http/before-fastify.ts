/**
 * Requests answered before Fastify sees them (http/remembered-profile.ts, http/reports-before-fastify.ts):
 * a few hot, simple requests whose cost was mostly Fastify's lifecycle (request and reply objects,
 * the hooks, the headers set one by one). What these do not take goes to Fastify unchanged. They are
 * mounted through Fastify's `serverFactory`: the server Fastify listens with asks them first. The
 * cross-cutting steps they take over from Fastify's hooks are declared in http/request-steps.ts.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';
import { fastifyTrustProxy, type TrustProxy } from '../config/proxy-config.ts';

/** Answers the request and says true, or says false without touching it. */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The HTTP options Fastify gives its own server (lib/server.js), which a serverFactory must apply. */
interface ServerOptions {
  http?: Parameters<typeof createServer>[0];
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * The answers before Fastify: `serverFactory` goes to Fastify's options, and `answerWith` puts the
 * answers in front of Fastify's handler once the app is built. They are asked only while the server
 * takes requests (`taking`: not draining) and is not closing; Fastify hears every request they do not
 * take, and every request before `answerWith`.
 */
export const requestsBeforeFastify = () => {
  const answers: EarlyAnswer[] = [];
  let open = () => false;
  const serverFactory = (handler: RequestListener, options: ServerOptions) => {
    const server = createServer(options.http ?? {}, (request, response) => {
      if (open()) for (const answer of answers) if (answer(request, response)) return;
      handler(request, response);
    });
    // As Fastify sets up the server it makes itself.
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if ((options.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket as number;
    return server;
  };
  const answerWith = (app: FastifyInstance, taking: () => boolean, list: EarlyAnswer[]) => {
    let closing = false;
    app.addHook('preClose', async function stopAnsweringBeforeFastify() {
      closing = true;
    });
    answers.push(...list);
    open = () => !closing && taking();
  };
  return { serverFactory, answerWith };
};

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
