/**
 * Usage batches (`POST /report/:product`) answered before Fastify sees them. The collector is the
 * server's hottest route (a tracker page posts a batch every few seconds), and Fastify's lifecycle
 * was a third of what a batch cost beside its write: bench/usage. The checks, the write and every
 * answer are the route's own (http/usage-report.ts, http/error-answer.ts); only the HTTP around
 * them is done here, as the route's hooks would do it.
 *
 * It takes a request only when what it has to read is plain, and hands every other one to Fastify
 * unchanged:
 * - `POST` to `/report/<code>` exactly: a code of letters, digits, `-` or `_` (no escape, no query);
 * - a `text/plain` body (what the trackers send; `charset=utf-8` or none) of a `Content-Length`
 *   within the route's limit, not chunked and not encoded (Fastify answers those and the oversized);
 * - without `Origin` when CORS origins are configured (@fastify/cors answers by origin), and without
 *   `X-Forwarded-For` or `X-Forwarded-Host` when proxies are trusted (the client's address then
 *   is Fastify's to work out);
 * - while the server takes requests (not draining nor closing).
 * The answer carries the headers the route's hooks give it (browserHeaders) and the collector's CORS
 * ones; the request is counted by the metrics under its route, and counted running by the drain; with
 * request logging on it is logged as Fastify logs a request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import type { EarlyAnswer } from './before-fastify.ts';
import type { AnswerHeaders } from './browser-headers.ts';
import { errorAnswer } from './error-answer.ts';
import { logAnswered, logArrived, logsRequests } from './request-log.ts';
import { collectReport, OPEN_TO_ANY_ORIGIN, REPORT_BODY_BYTES, REPORT_ROUTE } from './usage-report.ts';

export interface ReportsBeforeFastify {
  /** Batches answered here so far. */
  readonly answered: number;
}

export interface ReportsBeforeFastifyOptions {
  headers: AnswerHeaders;
  /** Counts a request as running until its answer closes (http/draining.ts). */
  track: (response: ServerResponse) => void;
}

const PREFIX = '/report/';
const PRODUCT_CODE = /^[A-Za-z0-9_-]{1,64}$/;
const PLAIN_TEXT = /^text\/plain\s*(;\s*charset="?utf-8"?\s*)?$/i;
const DIGITS = /^\d{1,9}$/;

/** A request taken here, while its body arrives. */
interface Taken {
  request: IncomingMessage;
  response: ServerResponse;
  product: string;
  started: number;
  /** Set when the request is logged, or once an error is. */
  requestId?: string;
}

/** Header names and values in one list, as `writeHead` takes them. */
const flat = (...groups: Readonly<Record<string, string>>[]) =>
  groups.flatMap((headers) => Object.entries(headers)).flat();

/** The product code of a request this path takes, else undefined. */
const takenProduct = (request: IncomingMessage, cors: boolean, trustsProxy: boolean): string | undefined => {
  const { method, url = '', headers } = request;
  if (method !== 'POST' || !url.startsWith(PREFIX)) return undefined;
  const product = url.slice(PREFIX.length);
  if (!PRODUCT_CODE.test(product)) return undefined;
  const length = headers['content-length'];
  if (length === undefined || !DIGITS.test(length) || Number(length) > REPORT_BODY_BYTES) return undefined;
  if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return undefined;
  if (!PLAIN_TEXT.test(headers['content-type'] ?? '')) return undefined;
  if (cors && headers.origin !== undefined) return undefined;
  if (trustsProxy && (headers['x-forwarded-for'] !== undefined || headers['x-forwarded-host'] !== undefined))
    return undefined;
  return product;
};

export const answerReportsBeforeFastify = (
  app: FastifyInstance,
  ctx: Context,
  { headers, track }: ReportsBeforeFastifyOptions,
): { state: ReportsBeforeFastify; answer: EarlyAnswer } => {
  const state = { answered: 0 };
  const cors = ctx.config.corsOrigins.length > 0;
  const trustsProxy = ctx.config.trustProxy !== false;
  const logged = logsRequests(app);
  const traced = logsRequests(app, 'debug');
  const { seriesOf, record } = ctx.metrics.http;
  const stored = flat(headers.empty, OPEN_TO_ANY_ORIGIN);
  const storedSeries = seriesOf(REPORT_ROUTE, 'POST', 204);

  /** What a request taken here is answered, once its body is in. */
  const answer = async (taken: Taken, body: Buffer[]) => {
    const { request, response, product } = taken;
    let status = 204;
    try {
      const text = body.length === 1 ? (body[0] as Buffer).toString('utf8') : Buffer.concat(body).toString('utf8');
      await collectReport(ctx, text, product, {
        ip: request.socket.remoteAddress ?? '',
        userAgent: String(request.headers['user-agent'] ?? ''),
        pid: undefined,
      });
      response.writeHead(204, stored);
      response.end();
    } catch (error) {
      taken.requestId ??= randomUUID();
      const refused = errorAnswer(error, app.log.child({ reqId: taken.requestId }), taken.requestId);
      status = refused.status;
      const json = JSON.stringify(refused.body);
      const names = flat(headers.json, OPEN_TO_ANY_ORIGIN, refused.headers);
      names.push('content-length', String(Buffer.byteLength(json)));
      response.writeHead(status, names);
      response.end(json);
    }
    const took = performance.now() - taken.started;
    record(status === 204 ? storedSeries : seriesOf(REPORT_ROUTE, 'POST', status), took / 1000);
    if (logged && taken.requestId)
      logAnswered(app.log, request, taken.requestId, request.socket.remoteAddress, status, took);
    state.answered++;
  };

  const take: EarlyAnswer = (request, response) => {
    const product = takenProduct(request, cors, trustsProxy);
    if (product === undefined) return false;
    const taken: Taken = { request, response, product, started: performance.now() };
    if (logged) {
      taken.requestId = randomUUID();
      if (traced) logArrived(app.log, request, taken.requestId, request.socket.remoteAddress);
    }
    track(response);
    const body: Buffer[] = [];
    request.on('data', (chunk: Buffer) => body.push(chunk));
    // A client gone before its body arrived in full is not answered (nor written).
    request.on('error', () => {});
    request.on('end', () => {
      answer(taken, body).catch((error: unknown) => app.log.error({ err: error }, 'unhandled error'));
    });
    return true;
  };
  return { state, answer: take };
};
