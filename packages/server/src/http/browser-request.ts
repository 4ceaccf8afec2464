/**
 * What a browser's request asks for, for the routes that send a browser on to another site and back
 * (WeChat and QQ, schools' sign-in systems): whether it is a page being opened or a program reading
 * JSON, and whether the page it wants to come back to is on this site.
 */
import type { FastifyRequest } from 'fastify';
import { siteOrigins } from '../config/site-origins.ts';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';

/** The provider may send the browser back only to this site: PUBLIC_URL's origin or a CORS origin. */
export const allowedRedirect = (ctx: Context, redirect: string): string => {
  let url: URL;
  try {
    url = new URL(redirect);
  } catch {
    throw invalidRequest('redirect must be an absolute URL of a page of this site.');
  }
  const allowed = siteOrigins(ctx.config);
  if (!allowed.includes(url.origin)) {
    throw invalidRequest(`redirect must be on ${allowed.join(' or ')} (PUBLIC_URL, CORS_ORIGINS).`);
  }
  url.hash = '';
  return url.toString();
};

export const wantsJson = (request: FastifyRequest) => {
  const accept = String(request.headers.accept ?? '');
  return accept.includes('application/json') && !accept.includes('text/html');
};

/** A page the browser is opening (a click on "WeChat"), rather than a call of a program reading JSON. */
export const isNavigation = (request: FastifyRequest) =>
  request.headers['sec-fetch-mode'] === 'navigate' || String(request.headers.accept ?? '').includes('text/html');
