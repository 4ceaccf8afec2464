/**
 * Builds the server from a configuration: plugins, the one error handler, every route area.
 * `listen` is the caller's business (main.ts, tests), so tests run the real thing in-process.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SDK_ACCOUNT_VERSION } from '@edupass/protocol';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Config } from './config/config.ts';
import { fastifyTrustProxy } from './config/proxy-config.ts';
import { type Context, type ContextOverrides, createContext } from './context.ts';
import { announceDevRoutes } from './dev-oauth/announce.ts';
import { ApiError, invalidRequest } from './errors.ts';
import { sendAnswersAsBuilt } from './http/answers-as-built.ts';
import { requestsBeforeFastify } from './http/before-fastify.ts';
import { browserHeaders } from './http/browser-headers.ts';
import { drainOnClose } from './http/draining.ts';
import { errorAnswer } from './http/error-answer.ts';
import { frameworkOptions, refuseLongUrls } from './http/framework-errors.ts';
import { asyncStdout, flushOnClose, type LogDestination } from './http/log-destination.ts';
import { serializeRequest } from './http/log-redaction.ts';
import { countRequests, serveMetrics } from './http/metrics-endpoint.ts';
import { answerProfileFromMemory, type RememberedProfile } from './http/remembered-profile.ts';
import { answerReportsBeforeFastify, type ReportsBeforeFastify } from './http/reports-before-fastify.ts';
import { AUTH_COOKIE } from './http/request-info.ts';
import { RequestLog } from './http/request-log.ts';
import { RETRY_AFTER_SECONDS } from './http/unavailable.ts';
import { loadWebPage } from './http/web-page.ts';
import { serveAvatars, serveWebFiles } from './http/web-static.ts';
import { accountRoutes } from './routes/account.ts';
import { adminRoutes } from './routes/admin.ts';
import { applicationAdminRoutes } from './routes/admin-applications.ts';
import { agreementRoutes } from './routes/agreements.ts';
import { captchaRoutes } from './routes/captcha.ts';
import { consoleAreas } from './routes/console-areas.ts';
import { dataExportDownloadRoute } from './routes/data-export-download.ts';
import { developmentRoutes } from './routes/dev-scope.ts';
import { guardianRoutes } from './routes/edu/family.ts';
import { schoolSignInRoutes } from './routes/edu/federation.ts';
import { eduRoutes } from './routes/edu/school.ts';
import { identityRoutes } from './routes/identity.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { secondFactorRoutes } from './routes/second-factor.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { signInRoutes } from './routes/sign-in.ts';
import { signUpRoutes } from './routes/sign-up.ts';
import { signingKeyRoutes } from './routes/signing-keys.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { usageRoutes } from './routes/usage.ts';
import { startExportWorker } from './services/account/data-export.ts';
import { startHousekeeping } from './services/platform/housekeeping.ts';
import type { LeaseWorker } from './services/platform/lease-worker.ts';
import { notReadyBecause, redisHealth } from './services/platform/readiness.ts';
import { startWebhookWorker, type WebhookWorker } from './services/webhooks/worker.ts';

export interface App {
  app: FastifyInstance;
  ctx: Context;
  /** Before close on a signal: new requests get 503 E_10, running ones finish (http/draining.ts). */
  drain(): Promise<void>;
  /** This process's webhook worker (tests run a pass at once instead of waiting for the poll). */
  webhooks: WebhookWorker;
  /** The worker building data exports (tests run a pass with `runOnce`). */
  exports: LeaseWorker;
  /** Profile reads answered from memory (http/remembered-profile.ts). */
  rememberedProfile: RememberedProfile;
  /** Usage batches answered before Fastify (http/reports-before-fastify.ts). */
  reportsBeforeFastify: ReportsBeforeFastify;
  /** The metrics listener's port, when METRICS_PORT is set. */
  metricsPort?: number | undefined;
  close(): Promise<void>;
}

export interface BuildOptions extends ContextOverrides {
  /** Pino options or false; tests pass false, or a stream to read what the server logs. */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** Time for a request to arrive in full (tests shorten it). */
  requestTimeoutMs?: number;
}

/** Logged requests show their URL without bearer values (tickets, codes, tokens in the query). */
const withRedaction = (logger: NonNullable<BuildOptions['logger']>) =>
  logger === false ? false : { ...(logger === true ? {} : logger), serializers: { req: serializeRequest } };

const API_PREFIXES = ['/oidc/', '/tiger/', '/captcha/', '/admin/', '/report/', '/monitor/', '/dev/', '/docs'];

/** A browser navigating to a page (not an API call, not an asset that is missing). */
const isPageRequest = (method: string, url: string, accept: string | undefined) =>
  (method === 'GET' || method === 'HEAD') &&
  (accept ?? '').includes('text/html') &&
  !API_PREFIXES.some((prefix) => url.startsWith(prefix)) &&
  !/\.[a-z0-9]+(\?|$)/i.test(url);

/**
 * The web client and the operator console: the copy of both builds that scripts/build.mjs puts beside
 * `dist/` (what an installed server package ships), else the web package's own build. Both paths hold
 * from `src/` and `dist/`.
 */
const defaultWebRoot =
  [resolve(import.meta.dirname, '../web'), resolve(import.meta.dirname, '../../web/dist')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  ) ?? resolve(import.meta.dirname, '../../web/dist');

export const buildApp = async (config: Config, options: BuildOptions = {}): Promise<App> => {
  const beforeFastify = requestsBeforeFastify();
  const stdout = options.logger === undefined ? asyncStdout() : undefined;
  const app = Fastify({
    serverFactory: beforeFastify.serverFactory,
    logger: withRedaction(options.logger ?? { level: config.logLevel, stream: stdout as LogDestination }),
    logController: new RequestLog(),
    genReqId: () => randomUUID(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    ...frameworkOptions(options.requestTimeoutMs),
    // Requests that arrive while closing get the catalogue's 503 (below), not Fastify's own body.
    return503OnClosing: false,
  });
  const ctx = await createContext(config, app.log, options);

  // Validation is ours (parse-fields), so failures carry the catalogue's codes and messages;
  // the schemas serve the API docs.
  app.setValidatorCompiler(() => () => true);

  // Existing clients send `Content-Type: application/json` with no body (logout, GETs).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidRequest('The body is not valid JSON.'), undefined);
    }
  });
  // The API speaks JSON only: any other body is 415 E_1 rather than a string no route can read.
  // (Usage beacons, which arrive as text/plain, register their own parser in their own scope.)
  app.removeContentTypeParser('text/plain');
  sendAnswersAsBuilt(app);

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const answer = errorAnswer(error, request.log, request.id);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  const webRoot = config.webRoot ?? defaultWebRoot;
  const webPage = existsSync(join(webRoot, 'index.html'))
    ? loadWebPage(webRoot, config.site, config.accountDeletionGraceDays)
    : undefined;
  app.setNotFoundHandler((request, reply) => {
    // The web client routes in the browser: a page request for any of its paths gets the app.
    if (webPage && isPageRequest(request.method, request.url, request.headers.accept)) {
      return webPage.send(request, reply);
    }
    return reply
      .code(404)
      .send(new ApiError('E_2', `No route ${request.method} ${request.url.split('?')[0]}.`).toWire(request.id));
  });

  // The browser headers' hook comes first, so every answer carries them, early refusals included.
  const answerHeaders = await browserHeaders(app, config);
  refuseLongUrls(app);
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'EduPass API', version: SDK_ACCOUNT_VERSION },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: AUTH_COOKIE },
        },
      },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  for (const area of [
    signUpRoutes,
    signInRoutes,
    secondFactorRoutes,
    accountRoutes,
    sessionRoutes,
    eduRoutes,
    guardianRoutes,
    dataExportDownloadRoute,
    agreementRoutes,
    tokenRoutes,
    usageRoutes,
    adminRoutes,
    applicationAdminRoutes,
    consoleAreas,
    signingKeyRoutes,
    identityRoutes,
  ])
    area(app, ctx);
  captchaRoutes(app, ctx);
  const withDevRoutes = config.devRoutes && !config.production;
  if (withDevRoutes) await developmentRoutes(app, ctx);
  oauthRoutes(app, ctx);
  schoolSignInRoutes(app, ctx);
  announceDevRoutes(app.log, config, withDevRoutes);

  if (webPage) await serveWebFiles(app, webRoot, webPage);
  if (config.avatars.s3 === undefined) await serveAvatars(app, config.avatars.dir);

  // Alive: the process answers (with Redis's state as a detail). Ready: the database answers too
  // (services/platform/readiness.ts).
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true, redis: await redisHealth(ctx) }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const reason = await notReadyBecause(ctx);
    if (reason === undefined) return { ok: true };
    return reply
      .code(503)
      .header('retry-after', RETRY_AFTER_SECONDS)
      .send(new ApiError('E_10', `Not ready: ${reason}.`).toWire(request.id));
  });
  const { drain, taking, track } = drainOnClose(app);
  const rememberedProfile = answerProfileFromMemory(app, ctx, { headers: answerHeaders.json, track });
  const reportsBeforeFastify = answerReportsBeforeFastify(app, ctx, { headers: answerHeaders, track });
  beforeFastify.answerWith(app, taking, [rememberedProfile.answer, reportsBeforeFastify.answer]);
  countRequests(app, ctx.metrics);
  const metricsEndpoint = await serveMetrics(app, config, ctx.metrics);
  const stopHousekeeping = startHousekeeping(ctx);
  const webhooks = startWebhookWorker(ctx);
  const exports = startExportWorker(ctx);
  app.addHook('onClose', async () => {
    await webhooks.stop();
    await exports.stop();
    await stopHousekeeping();
    await metricsEndpoint.close();
    await ctx.close();
  });
  if (stdout) flushOnClose(app, stdout);
  return {
    app,
    ctx,
    drain,
    webhooks,
    exports,
    rememberedProfile: rememberedProfile.state,
    reportsBeforeFastify: reportsBeforeFastify.state,
    metricsPort: metricsEndpoint.port,
    close: () => app.close(),
  };
};
