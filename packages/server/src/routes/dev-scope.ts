/**
 * The development routes (live codes at /dev/outbox, the development WeChat and QQ) in a scope of
 * their own. On by default (development on a loopback address), they answer only a request made on
 * this machine: from a loopback address, to a loopback host name, and not passed on by a proxy. A
 * proxy on the same host (nginx in front of `npm start`) would otherwise hand every live code to
 * anyone who reaches it, and a page using DNS rebinding could read them from a developer's browser.
 * DEV_ROUTES=1 opens them to every request (config.ts, logged loudly at start).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopback } from '../config/config.ts';
import { PROXY_HEADERS } from '../config/proxy-config.ts';
import type { Context } from '../context.ts';
import { devOauthRoutes } from '../dev-oauth/index.ts';
import { ApiError } from '../errors.ts';
import { devRoutes } from './dev.ts';

/**
 * Whether the request was made on this machine and reached the server directly. HTTP/1.0 is what
 * nginx speaks to its upstream unless told otherwise (with the upstream's own address as Host and no
 * forwarding header), where browsers and curl speak 1.1 or later. A proxy that adds no forwarding
 * header, speaks 1.1 and names a loopback host cannot be told apart: that is what NODE_ENV=production
 * is for.
 */
const madeOnThisMachine = ({ raw, socket, hostname }: FastifyRequest): boolean =>
  raw.httpVersion !== '1.0' &&
  isLoopback((socket.remoteAddress ?? '').replace(/^::ffff:/, '')) &&
  // Fastify's host name, without the port ([::1] keeps its brackets, as isLoopback takes it); a
  // proxy's X-Forwarded-Host is refused below in any case.
  isLoopback(hostname) &&
  PROXY_HEADERS.every((name) => raw.headers[name] === undefined);

export const developmentRoutes = (app: FastifyInstance, ctx: Context) =>
  app.register(async (scope) => {
    if (!ctx.config.devRoutesForAnyone) {
      scope.addHook('onRequest', async function onlyThisMachine(request, reply) {
        if (madeOnThisMachine(request)) return;
        const refusal = new ApiError(
          'E_2',
          `No route ${request.method} ${request.url.split('?')[0]}: development routes answer requests made on the server's own machine only, not through a proxy or under another host name. Fix: open it on that machine at ${ctx.config.publicUrl}, or set DEV_ROUTES=1 to answer everyone (never with real users).`,
        );
        return reply.code(404).send(refusal.toWire(request.id));
      });
    }
    devRoutes(scope, ctx);
    devOauthRoutes(scope, ctx);
  });
