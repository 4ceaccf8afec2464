/**
 * Shutting down without cutting anyone off. On SIGTERM the server first drains: it keeps accepting
 * connections, but every new request is answered 503 E_10 with `Connection: close` (a proxy or
 * client retries it elsewhere), while requests already running finish. Once nothing has run for a
 * moment (or after DRAIN_LIMIT_MS) the listener closes. Closing it at once would reset connections
 * the kernel had accepted but the server had not yet read (seen as ECONNRESET, request lost).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { RETRY_AFTER_SECONDS } from './unavailable.ts';

const QUIET_MS = 200;
const DRAIN_LIMIT_MS = 5_000;

export const drainOnClose = (app: FastifyInstance) => {
  let draining = false;
  let running = 0;
  let lastActivity = Date.now();
  const finished = () => {
    running = Math.max(0, running - 1);
    lastActivity = Date.now();
  };
  // The answer's `close` (sent in full, or the client went away) ends a request's count. (Fastify's
  // close still waits for every open request; this count only decides when to start it.) An answer
  // closes once, so `on` does what `once` would without wrapping the listener for every request.
  const track = (response: ServerResponse) => {
    lastActivity = Date.now();
    running++;
    response.on('close', finished);
  };
  app.addHook('onRequest', function countOrTurnAway(request, reply, done) {
    if (!draining) {
      track(reply.raw);
      return done();
    }
    lastActivity = Date.now();
    // Answers sent while draining end their connection, so keep-alive does not hold the close up.
    reply
      .code(503)
      .header('retry-after', RETRY_AFTER_SECONDS)
      .header('connection', 'close')
      .send(new ApiError('E_10', 'The server is shutting down. Try again in a few seconds.').toWire(request.id));
  });

  return {
    /** Turns new requests away and resolves once the ones running are done and all is quiet. */
    async drain() {
      draining = true;
      const started = Date.now();
      while (Date.now() - started < DRAIN_LIMIT_MS && (running > 0 || Date.now() - lastActivity < QUIET_MS)) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    /** Whether new requests are still taken (not draining). */
    taking: () => !draining,
    /** Counts a request answered before Fastify (http/before-fastify.ts) until its answer closes. */
    track,
  };
};
