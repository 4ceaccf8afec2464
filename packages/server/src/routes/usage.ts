/**
 * The collector (§7 "Usage reporting", "Monitoring beacon") and the console's usage queries:
 * `POST /report/:product`, `GET /report/time`, `GET|POST /monitor/beacon`, `GET /admin/usage/*`.
 */
import { REPORT_PATHS, TRACKER, USAGE_LIMITS } from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import { presentedCredential } from '../http/origin-check.ts';
import { clientInfo } from '../http/request-info.ts';
import { ingestBeacon, ingestReport, serverTime, usageWritten } from '../services/usage.ts';
import {
  apiFailureRates,
  type BUCKETS,
  durations,
  monitorErrors,
  requireOperator,
  uniques,
  usageCounts,
  vitalsP75,
} from '../services/usage-stats.ts';
import type { Window } from '../store/usage-stats.ts';
import { beaconBody, parseBeacon, parseReport } from './usage-parse.ts';

/** 1×1 transparent GIF: the answer an image beacon expects. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** The SDK counts 3× the JSON length against 30000, i.e. the worst-case UTF-8 bytes: the same bound in bytes. */
const REPORT_BODY_BYTES = TRACKER.requestSizeLimit;
const DAY_MS = 86_400_000;

// Sites report from their own origins without credentials, so any origin may post here; the SDKs
// read Retry-After from a 503 (not a header a cross-origin script sees unless exposed).
const openToAnyOrigin = (reply: FastifyReply) => {
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', 'retry-after');
};

const asText = (body: unknown): string => (typeof body === 'string' ? body : '');

const readWindow = (query: unknown, now: number): Window => {
  const q = (query ?? {}) as Record<string, unknown>;
  const product = typeof q.product === 'string' && q.product.length <= 64 ? q.product : '';
  if (!product) throw invalidRequest('Give ?product=<product code>.');
  const time = (name: string, fallback: number) => {
    if (q[name] === undefined) return fallback;
    const value = Number(q[name]);
    if (!Number.isSafeInteger(value) || value < 0) throw invalidRequest(`${name} must be unix milliseconds.`);
    return value;
  };
  const to = time('to', now);
  const from = time('from', to - 7 * DAY_MS);
  if (from >= to || to - from > 366 * DAY_MS) throw invalidRequest('from must be before to, at most 366 days apart.');
  return { product, from, to };
};

const stringParam = (query: unknown, name: string): string | undefined => {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value.slice(0, USAGE_LIMITS.keyMax) : undefined;
};

export const usageRoutes = (app: FastifyInstance, ctx: Context) => {
  void app.register(async (scope) => {
    // Tracker batches and POST beacons come as text/plain (a CORS "simple" request: no preflight per
    // batch); any body is taken as text here and parsed by the route, which also counts its size.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    // The store closes after this scope: rows still in the group-commit queue are written first.
    scope.addHook('onClose', () => usageWritten(ctx));

    const collector = { tags: ['usage'] };
    scope.post(
      '/report/:product',
      {
        bodyLimit: REPORT_BODY_BYTES,
        schema: {
          ...collector,
          summary: 'Report a batch of usage events (short-key payload); 204 once stored',
          params: { type: 'object', properties: { product: { type: 'string' } } },
        },
      },
      async (request: FastifyRequest<{ Params: { product: string } }>, reply) => {
        openToAnyOrigin(reply);
        const report = parseReport(asText(request.body), request.params.product);
        await ingestReport(ctx, report, clientInfo(request));
        return reply.code(204).send();
      },
    );
    scope.options('/report/:product', { schema: { hide: true } }, async (_request, reply) => {
      openToAnyOrigin(reply);
      reply.header('access-control-allow-methods', 'POST');
      reply.header('access-control-allow-headers', 'content-type');
      return reply.code(204).send();
    });
    scope.get(
      REPORT_PATHS.time,
      { schema: { ...collector, summary: 'Server time, unix ms' } },
      async (_request, reply) => {
        openToAnyOrigin(reply);
        reply.header('cache-control', 'no-store');
        return serverTime(ctx);
      },
    );
    scope.get(
      REPORT_PATHS.beacon,
      { schema: { ...collector, summary: 'Monitor beacon as query fields; answers a 1×1 GIF' } },
      async (request, reply) => {
        openToAnyOrigin(reply);
        await ingestBeacon(ctx, parseBeacon(request.query as Record<string, unknown>), clientInfo(request));
        return reply.code(200).header('content-type', 'image/gif').header('cache-control', 'no-store').send(PIXEL);
      },
    );
    scope.post(
      REPORT_PATHS.beacon,
      {
        bodyLimit: USAGE_LIMITS.beaconBodyMax,
        schema: { ...collector, summary: 'Monitor beacon, fields URL-encoded in the body; 204' },
      },
      async (request, reply) => {
        openToAnyOrigin(reply);
        await ingestBeacon(ctx, parseBeacon(beaconBody(asText(request.body))), clientInfo(request));
        return reply.code(204).send();
      },
    );

    // The console's queries: operators only.
    const security: { [label: string]: string[] }[] = [{ bearer: [] }, { cookie: [] }];
    const admin = { tags: ['admin'], security };
    scope.addHook('onRequest', async (request) => {
      if (request.url.startsWith('/admin/')) await requireOperator(ctx, presentedCredential(ctx, request));
    });
    scope.get('/admin/usage/events', { schema: { ...admin, summary: 'Event counts per key per hour or day' } }, (r) => {
      const bucket = stringParam(r.query, 'bucket') ?? 'day';
      if (bucket !== 'hour' && bucket !== 'day') throw invalidRequest('bucket must be hour or day.');
      return usageCounts(
        ctx,
        readWindow(r.query, ctx.now()),
        bucket as keyof typeof BUCKETS,
        stringParam(r.query, 'key'),
      );
    });
    scope.get('/admin/usage/uniques', { schema: { ...admin, summary: 'Unique devices and users' } }, (r) =>
      uniques(ctx, readWindow(r.query, ctx.now())),
    );
    scope.get(
      '/admin/usage/durations',
      { schema: { ...admin, summary: 'Duration percentiles of a timed event' } },
      (r) => {
        const key = stringParam(r.query, 'key');
        if (!key) throw invalidRequest('Give ?key=<event key>.');
        return durations(ctx, readWindow(r.query, ctx.now()), key);
      },
    );
    scope.get('/admin/monitor/errors', { schema: { ...admin, summary: 'JS error counts by message' } }, (r) =>
      monitorErrors(ctx, readWindow(r.query, ctx.now())),
    );
    scope.get('/admin/monitor/api', { schema: { ...admin, summary: 'API failure rate by path' } }, (r) =>
      apiFailureRates(ctx, readWindow(r.query, ctx.now())),
    );
    scope.get('/admin/monitor/vitals', { schema: { ...admin, summary: 'Web-vitals p75' } }, (r) =>
      vitalsP75(ctx, readWindow(r.query, ctx.now())),
    );
  });
};
