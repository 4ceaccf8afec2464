/**
 * The profile read answered from memory, before Fastify sees the request. Sites read the profile on
 * every page; once a token was verified and its session remembered (services/sessions/cache.ts), the
 * answer needs neither the database nor the signature, and Fastify's lifecycle (request and reply
 * objects, three kinds of hooks, the headers set one by one) was most of what it cost: bench/server.
 *
 * It answers only what the full route would answer with 200 and the same headers, and hands every
 * other request to Fastify unchanged:
 * - `GET` of the profile's path exactly (no query, no alias), with `Authorization`, without a body,
 *   and without `Origin` (the CORS plugin answers by origin);
 * - a token verified before and not expired, whose session is remembered live for a user who is not
 *   blocked (`rememberedSession`): the very checks `authenticate` makes, on the very same memory, so
 *   a sign-out, a block or a password change refuses the next read here as it does there;
 * - while the server takes requests (not draining nor closing).
 * With request logging on (LOG_LEVEL info or finer), each read is logged as Fastify logs a request
 * (http/request-log.ts): one line with a request id (a UUID, as genReqId gives), the method, URL,
 * host and the client's address (behind a trusted proxy, from X-Forwarded-For), the status and the
 * time taken (and at debug, its arrival). The drain counts it as running until its answer closes.
 * The headers are the ones the browser-header hooks give a JSON answer (browserHeaders); the request
 * is counted in the metrics under its route as Fastify's hook counts it.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { routes, type UserInfo } from '@edupass/protocol';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { userInfo } from '../services/account/views.ts';
import { rememberedSession } from '../services/sessions/tokens.ts';
import type { User } from '../store/schema.ts';
import { clientAddressOf, type EarlyAnswer } from './before-fastify.ts';
import { tokenOf } from './origin-check.ts';
import { logAnswered, logArrived, logsRequests } from './request-log.ts';

export interface RememberedProfile {
  /** Profile reads answered from memory so far. */
  readonly answered: number;
}

export interface RememberedProfileOptions {
  /** The headers of a JSON answer (browserHeaders). */
  headers: Readonly<Record<string, string>>;
  /** Counts a request as running until its answer closes (http/draining.ts). */
  track: (response: ServerResponse) => void;
}

export const answerProfileFromMemory = (
  app: FastifyInstance,
  ctx: Context,
  { headers, track }: RememberedProfileOptions,
): { state: RememberedProfile; answer: EarlyAnswer } => {
  const state = { answered: 0 };
  const logged = logsRequests(app);
  const traced = logsRequests(app, 'debug');
  const clientAddress = clientAddressOf(ctx.config.trustProxy);
  const path = routes.getProfile.path;
  const { seriesOf, record } = ctx.metrics.http;
  const series = seriesOf(path, 'GET', 200);
  // The answer's headers as writeHead takes them raw, its length last (set for each answer).
  const rawHeaders = [...Object.entries(headers).flat(), 'content-length'];
  // The answer of a user row as remembered: the session cache holds a row until it reads it again.
  const answers = new WeakMap<User, { body: string; length: string }>();
  const answerOf = (user: User) => {
    let answer = answers.get(user);
    if (answer === undefined) {
      const body = JSON.stringify(userInfo(user) satisfies UserInfo);
      answer = { body, length: String(Buffer.byteLength(body)) };
      answers.set(user, answer);
    }
    return answer;
  };
  const answer: EarlyAnswer = (request, response) => {
    if (request.method !== 'GET' || request.url !== path) return false;
    const { authorization, origin } = request.headers;
    if (authorization === undefined || origin !== undefined) return false;
    if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined)
      return false;
    const session = rememberedSession(ctx, tokenOf(authorization));
    if (session === undefined) return false;
    const started = performance.now();
    track(response);
    const reqId = logged ? randomUUID() : undefined;
    const ip = logged ? clientAddress(request) : undefined;
    if (reqId && traced) logArrived(app.log, request, reqId, ip);
    const { body, length } = answerOf(session.user);
    const raw = rawHeaders.slice();
    raw.push(length);
    response.writeHead(200, raw);
    response.end(body);
    const took = performance.now() - started;
    record(series, took / 1000);
    if (reqId) logAnswered(app.log, request, reqId, ip, 200, took);
    state.answered++;
    return true;
  };
  return { state, answer };
};
