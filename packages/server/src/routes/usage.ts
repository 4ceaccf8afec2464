/**
 * The collector (§7 "Usage reporting", "Monitoring beacon"): `POST /report/:product`,
 * `GET /report/time`, `GET|POST /monitor/beacon`. The console's figures are admin-usage.ts's.
 */
import { beaconImageAnswer, NO_CONTENT, REPORT_PATHS, serverTimeAnswer, USAGE_LIMITS } from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { clientInfo } from '../http/request-info.ts';
import { beaconBody, parseBeacon } from '../http/usage-parse.ts';
import { collectReport, OPEN_TO_ANY_ORIGIN, REPORT_BODY_BYTES, REPORT_ROUTE } from '../http/usage-report.ts';
import { ingestBeacon, serverTime, usageWritten } from '../services/usage/ingest.ts';

/** 1×1 transparent GIF: the answer an image beacon expects. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const ALLOW_ORIGIN = 'access-control-allow-origin';
const EXPOSE_HEADERS = 'access-control-expose-headers';

const openToAnyOrigin = (reply: FastifyReply) => {
  if (!reply.hasHeader(ALLOW_ORIGIN)) reply.header(ALLOW_ORIGIN, OPEN_TO_ANY_ORIGIN[ALLOW_ORIGIN]);
  reply.header(EXPOSE_HEADERS, OPEN_TO_ANY_ORIGIN[EXPOSE_HEADERS]);
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
      REPORT_ROUTE,
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
        await collectReport(ctx, asText(request.body), request.params.product, clientInfo(request));
        return reply.code(204).send();
      },
    );
    scope.options(REPORT_ROUTE, { schema: { hide: true } }, async (_request, reply) => {
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
