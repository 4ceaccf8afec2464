/**
 * What the request log says about a request, without the bearer values some URLs carry: one-time
 * tickets, OAuth codes and states, refresh and access tokens in the query are replaced by
 * `[redacted]`, so a log line (often kept longer and read by more people than the database) cannot
 * be replayed as a sign-in.
 */
import type { FastifyRequest } from 'fastify';

/** Query keys whose values work as credentials. Matched case-insensitively, `-` and `_` alike. */
const BEARER_KEY =
  /^(?:oauth_?ticket|ticket|captcha_?ticket|code|state|(?:refresh|access|id)?_?token|password|secret|sign(?:ature)?)$/i;

export const REDACTED = '[redacted]';

/** The URL with the values of bearer query keys replaced; everything else as it came. */
export const redactUrl = (url: string): string => {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const parts = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawKey = equals < 0 ? pair : pair.slice(0, equals);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is compared as it came.
      }
      return equals >= 0 && BEARER_KEY.test(key.replace(/-/g, '_')) ? `${rawKey}=${REDACTED}` : pair;
    });
  return `${url.slice(0, start)}?${parts.join('&')}`;
};

/**
 * Fastify's request serializer, with the URL redacted. The URL is the one the client asked for
 * (`originalUrl`): the sign-in provider is handed the path below /oidc (oidc/mount.ts), and its
 * requests are logged by the path they came on.
 */
export const serializeRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.originalUrl),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});
