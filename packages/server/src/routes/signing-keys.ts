/**
 * What products' backends call: the public signing keys (`GET /.well-known/jwks.json`, cacheable by
 * anyone) and token introspection (`POST /introspect`, RFC 7662: a form or JSON body with `token`,
 * HTTP Basic authentication of the product).
 */
import { parse as parseQuery } from 'node:querystring';
import { introspectionAnswer, jwksAnswer, wireErrorAnswer } from '@edupass/protocol';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import { header } from '../http/request-info.ts';
import { introspect, introspectingProduct } from '../services/sessions/introspection.ts';
import { JWKS_MAX_AGE_SECONDS, signingKeys } from '../services/sessions/signing-keys.ts';

export const JWKS_PATH = '/.well-known/jwks.json';
export const INTROSPECTION_PATH = '/introspect';

const tokenOf = (body: unknown): string => {
  const token = (body as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string' || token === '' || token.length > 8192) {
    throw invalidRequest('The body must name the token to introspect (token=…).');
  }
  return token;
};

export const signingKeyRoutes = (app: FastifyInstance, ctx: Context) => {
  const keys = signingKeys(ctx);
  // The first key is made on first start, before any request wants one.
  app.addHook('onReady', async () => {
    await keys.version();
  });
  app.get(
    JWKS_PATH,
    {
      schema: {
        tags: ['keys'],
        summary: 'The public keys that verify access tokens (JWKS)',
        response: { 200: jwksAnswer },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
      reply.header('access-control-allow-origin', '*');
      return keys.publicJwks();
    },
  );
  void app.register(async (scope) => {
    // RFC 7662 clients post a form; JSON is taken too.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, parseQuery(typeof body === 'string' ? body : body.toString('utf8'))),
    );
    scope.post(
      INTROSPECTION_PATH,
      {
        bodyLimit: 16 * 1024,
        schema: {
          tags: ['keys'],
          summary: "Whether an access token is live (RFC 7662), for a product's backend (HTTP Basic pid:secret)",
          response: { 200: introspectionAnswer, '4XX': wireErrorAnswer },
        },
      },
      async (request) => {
        const pid = await introspectingProduct(ctx, header(request, 'authorization'), request.ip);
        return introspect(ctx, pid, tokenOf(request.body));
      },
    );
  });
};
