/**
 * `POST /report/:product`, the collector's hottest request, in one implementation for the Fastify
 * route (routes/usage.ts) and for the same requests answered before Fastify (reports-before-fastify.ts).
 */
import { TRACKER } from '@edupass/protocol';
import type { Context } from '../context.ts';
import type { ClientInfo } from '../services/sessions/tokens.ts';
import { ingestReport } from '../services/usage/ingest.ts';
import { parseReport } from './usage-parse.ts';

export const REPORT_ROUTE = '/report/:product';

/** The SDK counts 3× the JSON length against 30000, i.e. the worst-case UTF-8 bytes: the same bound in bytes. */
export const REPORT_BODY_BYTES = TRACKER.requestSizeLimit;

/**
 * Sites report from their own origins without credentials, so any origin may post here; the SDKs
 * read Retry-After from a 503 (not a header a cross-origin script sees unless exposed). A configured
 * CORS origin keeps the answer @fastify/cors gives it.
 */
export const OPEN_TO_ANY_ORIGIN = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'retry-after',
} as const;

/** Checks and stores a batch (the body as text); resolves once it is committed, for the 204. */
export const collectReport = async (ctx: Context, body: string, product: string, client: ClientInfo) =>
  ingestReport(ctx, parseReport(body, product), client);
