/**
 * Serves the provider under OIDC_PREFIX of the Fastify server: its Koa handler gets the raw request
 * and response, with the prefix taken off the URL (the issuer carries it). The provider is built on
 * first use and built again when the signing keys change (services/sessions/signing-keys.ts `version`), so a
 * rotation takes effect at once; everything it keeps is in the database, so nobody is signed out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OIDC_PREFIX } from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Provider } from 'oidc-provider';
import { PROXY_HEADERS } from '../config/proxy-config.ts';
import type { Context } from '../context.ts';
import { startBackchannelLogoutWorker } from '../services/identity/backchannel-logout.ts';
import { ConsumedTwice, providerRequest, withRequestReads } from '../services/identity/provider-data.ts';
import { signingKeys } from '../services/sessions/signing-keys.ts';
import { createProvider } from './provider.ts';

interface Built {
  version: string;
  provider: Provider;
  handle: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Each server's provider source: the routes that need the provider share it (one build). */
const sources = new WeakMap<Context, () => Promise<Built>>();

/** The provider for the current signing keys; concurrent callers share one build. */
export const currentProvider = (ctx: Context): (() => Promise<Built>) => {
  const known = sources.get(ctx);
  if (known !== undefined) return known;
  const source = providerSource(ctx);
  sources.set(ctx, source);
  return source;
};

const providerSource = (ctx: Context) => {
  const keys = signingKeys(ctx);
  let built: Promise<Built> | undefined;
  const build = async (version: string): Promise<Built> => {
    const provider = await createProvider(ctx, await keys.privateJwks(), await keys.accessTokenKid());
    return { version, provider, handle: provider.callback() };
  };
  return async (): Promise<Built> => {
    const version = await keys.version();
    const previous = built;
    const ready = previous === undefined ? undefined : await previous.catch(() => undefined);
    if (ready?.version === version) return ready;
    if (built === previous || built === undefined) built = build(version);
    return built;
  };
};

export type ProviderSource = ReturnType<typeof currentProvider>;

/**
 * What the provider reads of the request to build its URLs (issuer endpoints in discovery, the
 * return after sign-in) and its cookies' Secure flag is set here from PUBLIC_URL, never taken from
 * the request: host, port and scheme are PUBLIC_URL's, and the client address is Fastify's (which
 * believes X-Forwarded-For only from TRUST_PROXY's proxies). The provider runs with Koa's `proxy`
 * on only to read these values, which no client can choose.
 */
export const asPublicRequest = (request: FastifyRequest, publicUrl: string) => {
  const url = new URL(publicUrl);
  // Read before the headers change: Fastify works the address out of X-Forwarded-For on each read.
  const ip = request.ip;
  const { headers } = request.raw;
  for (const name of PROXY_HEADERS) delete headers[name];
  headers.host = url.host;
  headers['x-forwarded-host'] = url.host;
  headers['x-forwarded-proto'] = url.protocol.slice(0, -1);
  headers['x-forwarded-for'] = ip;
};

/**
 * Runs the provider's handling of one request with its reads made once and its writes held
 * (services/identity/provider-writes.ts), and holds the end of its answer until those writes are
 * committed: a failed write answers 503 (`temporarily_unavailable`) instead of a success whose rows
 * were never written, and a code or refresh token another request consumed first `invalid_grant`.
 */
const handleInOneTransaction = (ctx: Context, handle: Built['handle'], req: IncomingMessage, res: ServerResponse) => {
  const request = providerRequest(ctx.db);
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    request.flush().then(
      () => end(...args),
      (error: unknown) => {
        if (!(error instanceof ConsumedTwice))
          ctx.logger.error({ err: error }, 'the provider could not write what it answered');
        if (res.headersSent) return end();
        for (const name of res.getHeaderNames()) res.removeHeader(name);
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('cache-control', 'no-store');
        if (error instanceof ConsumedTwice) {
          // Another request used this code or refresh token first: the provider's own answer to a replay.
          res.statusCode = 400;
          return end(JSON.stringify({ error: 'invalid_grant', error_description: 'grant request is invalid' }));
        }
        res.statusCode = 503;
        res.setHeader('retry-after', '1');
        end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'Try again in a moment.' }));
      },
    );
    return res;
  }) as ServerResponse['end'];
  request.run(() => withRequestReads(() => handle(req, res)));
};

export const mountProvider = (app: FastifyInstance, ctx: Context, provider: ProviderSource) => {
  const logouts = startBackchannelLogoutWorker(ctx, async () => (await provider()).provider);
  app.addHook('onClose', () => logouts.stop());
  void app.register(async (scope) => {
    // The provider reads its own bodies (form posts to /token and the logout form).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const { handle } = await provider();
      asPublicRequest(request, ctx.config.publicUrl);
      const original = request.raw.url ?? OIDC_PREFIX;
      // As Express mounts it: the provider finds its mount path from `originalUrl` minus `url`.
      Object.assign(request.raw, { originalUrl: original });
      request.raw.url = original.slice(OIDC_PREFIX.length) || '/';
      reply.hijack();
      // The provider's own pages (sign-out question, errors) are never framed: a framed sign-out
      // button could be clicked for the user. (The site's full policy is not applied here: the
      // provider's form_post answers use an inline script.)
      reply.raw.setHeader('x-frame-options', 'DENY');
      reply.raw.setHeader('content-security-policy', "frame-ancestors 'none'");
      handleInOneTransaction(ctx, handle, request.raw, reply.raw);
    };
    scope.all(OIDC_PREFIX, { schema: { hide: true } }, handler);
    scope.all(`${OIDC_PREFIX}/*`, { schema: { hide: true } }, handler);
  });
};
