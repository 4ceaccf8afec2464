/** What the server reads from a request besides its body: who is calling and how. */

import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.ts';
import type { ClientInfo } from '../services/sessions/tokens.ts';

export const AUTH_COOKIE = 'authorization';

/** The product a sign-in names in its body (`pid`), when it is a configured one. */
const productOf = (request: FastifyRequest, config: Config | undefined): string | undefined => {
  const pid = (request.body as { pid?: unknown } | undefined)?.pid;
  return typeof pid === 'string' && config !== undefined && Object.hasOwn(config.products, pid) ? pid : undefined;
};

export const clientInfo = (request: FastifyRequest, config?: Config): ClientInfo => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
  pid: productOf(request, config),
});

export const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
};

/** Clients that send Auth-Version get the token set instead of a plain session token. */
export const wantsTokenSet = (request: FastifyRequest) => header(request, 'auth-version') !== undefined;

/** The `authorization` cookie, its name matched case-insensitively as existing clients vary. */
export const authCookie = (request: FastifyRequest): string | undefined => {
  const cookies = request.cookies ?? {};
  const name = Object.keys(cookies).find((key) => key.toLowerCase() === AUTH_COOKIE);
  const value = name === undefined ? undefined : cookies[name];
  return value === undefined || value === '' ? undefined : value;
};

export const setAuthCookie = (reply: FastifyReply, config: Config, token: string, maxAge: number) =>
  reply.setCookie(AUTH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    path: '/',
    maxAge,
    ...(config.cookieDomain ? { domain: config.cookieDomain } : {}),
  });

export const clearAuthCookie = (reply: FastifyReply, config: Config) =>
  reply.clearCookie(AUTH_COOKIE, { path: '/', ...(config.cookieDomain ? { domain: config.cookieDomain } : {}) });
