/**
 * Token introspection (RFC 7662) for products' backends: is this access token live right now —
 * signature and expiry, and also its session not ended and its user not blocked, which a backend
 * verifying from the JWKS alone cannot see. A product sees only tokens issued for it (`aud`); for
 * any other, and for every token that is not live, the answer is just `{ active: false }`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { limitedSecretCheck } from '../security/client-secrets.ts';
import { accessTokenClaims } from './access-tokens.ts';
import { authenticate } from './tokens.ts';

export type Introspection =
  | { active: false }
  | {
      active: true;
      token_type: 'Bearer';
      iss: string;
      sub: string;
      sid: string;
      aud: string;
      client_id: string;
      scope: string;
      iat: number;
      exp: number;
    };

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The product an HTTP Basic `Authorization` header authenticates (INTROSPECTION_SECRETS), else E_0;
 * wrong secrets are limited per product and address (services/security/client-secrets.ts).
 */
export const introspectingProduct = async (
  ctx: Context,
  authorization: string | undefined,
  ip: string,
): Promise<string> => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  const decoded = match?.[1] === undefined ? '' : Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // RFC 6749 §2.3.1: client id and secret are form-urlencoded before Basic encoding.
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return '';
    }
  };
  const pid = decode(decoded.slice(0, Math.max(colon, 0)));
  const secret = decode(decoded.slice(colon + 1));
  const expected = Object.hasOwn(ctx.config.introspectionSecrets, pid)
    ? ctx.config.introspectionSecrets[pid]
    : undefined;
  const known = colon >= 0 && expected !== undefined;
  if (!known || !(await limitedSecretCheck(ctx, pid, ip, () => sameSecret(secret, expected)))) {
    throw new ApiError('E_0', 'Client authentication failed: send HTTP Basic pid:secret (INTROSPECTION_SECRETS).');
  }
  return pid;
};

export const introspect = async (ctx: Context, pid: string, token: string): Promise<Introspection> => {
  try {
    const claims = await accessTokenClaims(ctx, token);
    if (claims.aud !== pid) return { active: false };
    await authenticate(ctx, token);
    return {
      active: true,
      token_type: 'Bearer',
      iss: ctx.config.publicUrl,
      sub: String(claims.userId),
      sid: claims.sessionId,
      aud: claims.aud,
      client_id: pid,
      scope: claims.scope,
      iat: claims.iat,
      exp: claims.exp,
    };
  } catch (error) {
    if (error instanceof ApiError) return { active: false };
    throw error;
  }
};
