/**
 * The collector (§7 "Usage reporting", "Monitoring beacon"): `POST /report/:product`,
 * `GET /report/time`, `GET|POST /monitor/beacon`. The console's figures are admin-usage.ts's.
 */
import {
  beaconImageAnswer,
  NO_CONTENT,
  REPORT_PATHS,
  serverTimeAnswer,
  TRACKER,
  USAGE_LIMITS,
} from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { clientInfo } from '../http/request-info.ts';
import { ingestBeacon, ingestReport, serverTime, usageWritten } from '../services/usage/ingest.ts';
import { beaconBody, parseBeacon, parseReport } from './usage-parse.ts';

/** 1×1 transparent GIF: the answer an image beacon expects. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** The SDK counts 3× the JSON length against 30000, i.e. the worst-case UTF-8 bytes: the same bound in bytes. */
const REPORT_BODY_BYTES = TRACKER.requestSizeLimit;

// Sites report from their own origins without credentials, so any origin may post here; the SDKs
// read Retry-After from a 503 (not a header a cross-origin script sees unless exposed).
const openToAnyOrigin = (reply: FastifyReply) => {
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', 'retry-after');
};

const asText = (body: unknown): string => (typeof body === 'string' ? body : '');

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
          response: { 204: NO_CONTENT },
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
      { schema: { ...collector, summary: 'Server time, unix ms', response: { 200: serverTimeAnswer } } },
      async (_request, reply) => {
        openToAnyOrigin(reply);
        reply.header('cache-control', 'no-store');
        return serverTime(ctx);
      },
    );
    scope.get(
      REPORT_PATHS.beacon,
      {
        schema: {
          ...collector,
          summary: 'Monitor beacon as query fields; answers a 1×1 GIF',
          response: { 200: beaconImageAnswer },
        },
      },
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
        schema: {
          ...collector,
          summary: 'Monitor beacon, fields URL-encoded in the body; 204',
          response: { 204: NO_CONTENT },
        },
      },
      async (request, reply) => {
        openToAnyOrigin(reply);
        await ingestBeacon(ctx, parseBeacon(beaconBody(asText(request.body))), clientInfo(request));
        return reply.code(204).send();
      },
    );
  });
};
