/**
 * Verifies EduPass access tokens in a site's backend from the published JWKS: no shared secret, no
 * call to EduPass per request. The key set is fetched once, cached, and fetched again when a token
 * names a key it does not hold (a rotation), so rotation needs nothing from the site.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { EduPassAuthError } from './errors.ts';
import { type IntrospectionOptions, type IntrospectionResult, introspectToken } from './introspection.ts';

export interface VerifierOptions {
  /** EduPass's PUBLIC_URL, the tokens' `iss`, e.g. `https://account.example.com`. */
  issuer: string;
  /** Default `<issuer>/.well-known/jwks.json`. */
  jwksUrl?: string | URL;
  /** The site's pid (or application client id): tokens issued for another audience are refused. */
  audience: string | string[];
  /** Leeway for `exp`/`iat` against the site's clock, seconds (default 5). */
  clockToleranceSeconds?: number;
  /** For the online check (`verifier.introspect`, `online: true` in the middleware). */
  introspection?: IntrospectionOptions;
  /** How long the JWKS is kept before it is fetched again, ms (default 10 minutes). */
  jwksCacheMaxAgeMs?: number;
  /** Least time between two fetches of the JWKS for unknown keys, ms (default 30 s). */
  jwksCooldownMs?: number;
}

/**
 * The signed claims of an access token. Declared here rather than taken from jose, so that a site's
 * type-check never has to resolve jose's ES-module-only declarations (a CommonJS project cannot).
 */
export interface EduPassTokenPayload {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  jti?: string;
  nbf?: number;
  exp?: number;
  iat?: number;
  [claim: string]: unknown;
}

/** What a verified token says. */
export interface EduPassClaims {
  /** The user's id, as in the token's `sub`. */
  userId: number;
  sub: string;
  /** The session: introspection and sign-out refer to it. */
  sessionId: string;
  /** The product the token was issued for. */
  audience: string;
  issuer: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  /** Every claim as signed. */
  payload: EduPassTokenPayload;
}

export interface Verifier {
  /** The claims of a valid token; EduPassAuthError otherwise. */
  verify(token: string): Promise<EduPassClaims>;
  /** Asks EduPass whether the token's session is live (needs `introspection` in the options). */
  introspect(token: string): Promise<IntrospectionResult>;
  /** `verify`, then `introspect`: token_inactive when the session ended or the user is blocked. */
  verifyOnline(token: string): Promise<EduPassClaims>;
}

const asAuthError = (error: unknown): EduPassAuthError => {
  if (error instanceof EduPassAuthError) return error;
  if (error instanceof errors.JWTExpired) return new EduPassAuthError('token_expired', 'The token has expired.');
  if (error instanceof errors.JWKSTimeout || (error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC')) {
    return new EduPassAuthError('edupass_unavailable', 'The JWKS could not be fetched.', { cause: error });
  }
  if (error instanceof errors.JOSEError) {
    return new EduPassAuthError('token_invalid', `The token is not valid: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return new EduPassAuthError('edupass_unavailable', 'The JWKS could not be fetched.', { cause: error });
};

const claimsOf = (payload: EduPassTokenPayload): EduPassClaims => {
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string') {
    throw new EduPassAuthError('token_invalid', 'The token names no EduPass user and session.');
  }
  return {
    userId,
    sub: String(payload.sub),
    sessionId: payload.sid,
    audience: Array.isArray(payload.aud) ? String(payload.aud[0]) : String(payload.aud),
    issuer: String(payload.iss),
    scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
    issuedAt: payload.iat ?? 0,
    expiresAt: payload.exp ?? 0,
    payload,
  };
};

const withoutSlash = (url: string) => url.replace(/\/+$/, '');

export const createVerifier = (options: VerifierOptions): Verifier => {
  const issuer = withoutSlash(options.issuer);
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl ?? `${issuer}/.well-known/jwks.json`), {
    cacheMaxAge: options.jwksCacheMaxAgeMs ?? 10 * 60_000,
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
  });
  const verify = async (token: string) => {
    try {
      const { payload } = await jwtVerify(token, jwks, {
        // EduPass writes PUBLIC_URL as it is configured: with or without a trailing slash.
        issuer: [issuer, `${issuer}/`],
        audience: options.audience,
        algorithms: ['ES256', 'EdDSA'],
        clockTolerance: options.clockToleranceSeconds ?? 5,
      });
      return claimsOf(payload);
    } catch (error) {
      // A key the set did not hold, though it was fetched moments ago (a rotation with `--now`): the
      // token may well be valid, and the set is fetched again once the cool-down ends. Unavailable
      // for now (503, retry shortly), not refused (401, which signs the user out).
      if (error instanceof errors.JWKSNoMatchingKey && jwks.coolingDown) {
        throw new EduPassAuthError(
          'edupass_unavailable',
          'The token names a signing key that is not in the key set fetched moments ago; try again shortly.',
          { cause: error },
        );
      }
      throw asAuthError(error);
    }
  };
  const introspect = (token: string) => {
    const settings = options.introspection;
    if (settings === undefined) throw new Error('createVerifier: pass `introspection` to check tokens online.');
    return introspectToken(settings.url ?? `${issuer}/introspect`, settings, token);
  };
  return {
    verify,
    introspect,
    async verifyOnline(token) {
      const claims = await verify(token);
      const answer = await introspect(token);
      if (!answer.active) throw new EduPassAuthError('token_inactive', 'The session of this token has ended.');
      return claims;
    },
  };
};
