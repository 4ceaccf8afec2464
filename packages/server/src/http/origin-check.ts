/**
 * Cross-site request forgery defense for calls authenticated by the `authorization` cookie. A
 * browser attaches the cookie to a form post or fetch from any site it is same-site with (SameSite=Lax
 * stops only cross-site posts), so a write that the cookie authenticates must come from this site
 * (PUBLIC_URL), a configured front end (CORS_ORIGINS), or the host the request names. Bearer tokens
 * are not affected: a page cannot make a browser attach one.
 *
 * The checks, in the order browsers let us make them (as Go's net/http CrossOriginProtection does):
 * `Origin` when sent; else `Sec-Fetch-Site` (same-origin, or none for a typed URL); else `Referer`;
 * a request with none of them does not come from a browser and passes.
 */
import type { FastifyRequest } from 'fastify';
import { siteOrigins } from '../config/site-origins.ts';
import type { Context } from '../context.ts';
import { ApiError } from '../errors.ts';
import { securityEvent } from '../services/security/events.ts';
import { authCookie, header } from './request-info.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const originOf = (value: string): string | undefined => (URL.canParse(value) ? new URL(value).origin : undefined);

/** Undefined when the request is allowed, else why it is refused. */
export const crossSiteProblem = (ctx: Context, request: FastifyRequest): string | undefined => {
  const trusted = (origin: string | undefined) =>
    origin !== undefined &&
    origin !== 'null' &&
    (siteOrigins(ctx.config).includes(origin) || new URL(origin).host === request.headers.host);
  const origin = header(request, 'origin');
  if (origin !== undefined) return trusted(originOf(origin) ?? 'null') ? undefined : `origin ${origin}`;
  const site = header(request, 'sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' || site === 'none' ? undefined : `sec-fetch-site ${site}`;
  const referer = header(request, 'referer');
  if (referer !== undefined) return trusted(originOf(referer)) ? undefined : `referer ${originOf(referer) ?? '?'}`;
  return undefined;
};

/**
 * The token in an `Authorization` value: its last word (`Bearer <token>`, or a bare token), without
 * splitting the whole value (and without a backtracking pattern, which a long header of many words
 * would make quadratic).
 */
export const tokenOf = (value: string) => {
  const trimmed = value.trim();
  return trimmed.slice(Math.max(trimmed.lastIndexOf(' '), trimmed.lastIndexOf('\t')) + 1);
};

/**
 * The token a call presents — `Authorization` first, else the cookie — refusing a write that only
 * the cookie authenticates when it comes from another site (E_9).
 */
export const presentedCredential = (ctx: Context, request: FastifyRequest): string | undefined => {
  const value = header(request, 'authorization');
  if (value !== undefined) return tokenOf(value);
  const cookie = authCookie(request);
  if (cookie !== undefined && !SAFE_METHODS.has(request.method)) {
    const problem = crossSiteProblem(ctx, request);
    if (problem !== undefined) {
      securityEvent(ctx, {
        event: 'origin_refused',
        ip: request.ip,
        reason: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}: ${problem}`,
      });
      throw new ApiError('E_9');
    }
  }
  return cookie;
};
