/**
 * Where Prometheus scrapes: METRICS_PORT opens a second listener that serves only `/metrics`, on
 * loopback unless METRICS_HOST says otherwise (and then, in production, only with METRICS_TOKEN);
 * else METRICS_TOKEN serves `/metrics` on the main port. With METRICS_TOKEN, either answers only a
 * bearer of that token. Neither set: no metrics endpoint. Every request is counted by route pattern.
 */

import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.ts';
import { ApiError } from '../errors.ts';
import type { Metrics } from '../services/platform/metrics.ts';
import { header } from './request-info.ts';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Whether an Authorization header carries the metrics token (always, when there is none to ask for). */
const bearerHolds = (authorization: string | undefined, token: string | undefined) => {
  if (token === undefined) return true;
  const presented = authorization?.replace(/^Bearer\s+/i, '');
  return presented !== undefined && sameToken(presented, token);
};

export const countRequests = (app: FastifyInstance, metrics: Metrics) => {
  const { seriesOf, record } = metrics.http;
  app.addHook('onResponse', function countRequest(request, reply, done) {
    // The route's pattern, never the raw URL: ids and query strings would explode the label set.
    record(
      seriesOf(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode),
      reply.elapsedTime / 1000,
    );
    done();
  });
};

/** Registers `/metrics` behind the token, or starts the metrics listener; answers its port and closer. */
export const serveMetrics = async (
  app: FastifyInstance,
  config: Config,
  metrics: Metrics,
): Promise<{ port?: number; close(): Promise<void> }> => {
  const { metricsToken, metricsPort } = config;
  if (metricsPort !== undefined) {
    const server: Server = createServer(async (request, response) => {
      if (request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404).end();
        return;
      }
      if (!bearerHolds(request.headers.authorization, metricsToken)) {
        response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
      const body = await metrics.registry.metrics();
      response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(metricsPort, config.metricsHost, resolve);
    });
    const address = server.address();
    return {
      port: typeof address === 'object' && address ? address.port : metricsPort,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
  if (metricsToken !== undefined) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!bearerHolds(header(request, 'authorization'), metricsToken)) throw new ApiError('E_0');
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }
  return { close: async () => {} };
};
