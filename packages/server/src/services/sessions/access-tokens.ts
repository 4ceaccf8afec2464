/**
 * Access and session tokens: JWTs signed ES256 with the current signing key (`kid` in the header;
 * services/sessions/signing-keys.ts), carrying `iss` (PUBLIC_URL), `sub` (the user), `sid` (the session),
 * `aud` (the product the session was started for), `iat`, `exp` and `scope`. A site's backend
 * verifies them from `/.well-known/jwks.json` alone.
 *
 * Tokens signed HS256 before the upgrade (with JWT_SECRET or JWT_SECRET_PREVIOUS) keep verifying
 * until they expire: only those issued before the first asymmetric key, and only for as long as
 * the longest token could live after it.
 */
import {
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  jwtVerify,
  type ProtectedHeaderParameters,
  UnsecuredJWT,
} from 'jose';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { signEs256, verifyEs256 } from './es256.ts';
import { currentSigner, keySet, SIGNING_ALG, verificationKey } from './signing-keys.ts';

/** The scope of first-party tokens: the account API. Tokens without it (another client's) are refused. */
export const ACCOUNT_SCOPE = 'account';

export interface AccessTokenSubject {
  userId: number;
  sessionId: string;
  /** The product the session is for; the first configured product when unknown. */
  pid?: string | null | undefined;
}

export interface AccessClaims {
  userId: number;
  sessionId: string;
  exp: number;
  iat: number;
  /** The product; tokens from before the upgrade name none: the first configured product. */
  aud: string;
  scope: string;
}

/** The product of a session or account that names none: the first configured. */
export const defaultPid = (ctx: Context) => Object.keys(ctx.config.products)[0] ?? 'edupass';

/** A JWS segment: the value's JSON, base64url-encoded. */
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A compact JWS (RFC 7515) signed ES256 with node:crypto: the signature is the raw r‖s pair over
 * SHA-256, as ES256 requires (RFC 7518 §3.4, es256.ts); jose verifies it like its own.
 */
export const signAccessToken = async (ctx: Context, subject: AccessTokenSubject, ttlSeconds: number) => {
  const { kid, key } = await currentSigner(ctx);
  const nowSeconds = Math.floor(ctx.now() / 1000);
  const aud = subject.pid ?? defaultPid(ctx);
  const claims: AccessClaims = {
    userId: subject.userId,
    sessionId: subject.sessionId,
    exp: nowSeconds + ttlSeconds,
    iat: nowSeconds,
    aud,
    scope: ACCOUNT_SCOPE,
  };
  const signingInput = `${segment({ alg: SIGNING_ALG, kid, typ: 'JWT' })}.${segment({
    sid: claims.sessionId,
    scope: claims.scope,
    iss: ctx.config.publicUrl,
    sub: String(claims.userId),
    aud,
    iat: claims.iat,
    exp: claims.exp,
  })}`;
  const token = `${signingInput}.${signEs256(key, signingInput).toString('base64url')}`;
  // Its first use (a sign-in completing a product's, the client's next call) need not check what was
  // just signed here; a token for a product not configured is checked, and refused, as any other.
  if (Object.hasOwn(ctx.config.products, aud)) remember(ctx, token, claims);
  return token;
};

const legacyPayload = async (ctx: Context, token: string): Promise<JWTPayload> => {
  const { asymmetricSince } = await keySet(ctx);
  const longestMs = Math.max(ctx.config.accessTokenTtlSeconds, ctx.config.sessionTokenTtlSeconds) * 1000;
  const acceptedUntil = asymmetricSince + longestMs;
  if (ctx.now() >= acceptedUntil) throw new errors.JWTExpired('HS256 tokens are no longer accepted', {});
  const options = { algorithms: ['HS256'], currentDate: new Date(ctx.now()) };
  let payload: JWTPayload;
  try {
    payload = (await jwtVerify(token, ctx.keys.jwt, options)).payload;
  } catch (error) {
    // While rotating the secret, a bad signature gets a second try with the previous one.
    if (!(error instanceof errors.JWSSignatureVerificationFailed) || ctx.keys.jwtPrevious === undefined) throw error;
    payload = (await jwtVerify(token, ctx.keys.jwtPrevious, options)).payload;
  }
  if ((payload.iat ?? Number.POSITIVE_INFINITY) * 1000 > asymmetricSince) {
    throw new errors.JWTClaimValidationFailed('HS256 token issued after the upgrade', payload, 'iat');
  }
  // Remembered (below) no longer than HS256 tokens are accepted at all.
  return { ...payload, exp: Math.min(payload.exp ?? 0, Math.floor(acceptedUntil / 1000)) };
};

/** An unsecured JWS header (`alg: none`), for jose to check the claims of a token whose signature was checked here. */
const UNSECURED_HEADER = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
/** A JOSE ES256 signature in base64url: 64 bytes. */
const ES256_SIGNATURE = /^[A-Za-z0-9_-]{86}$/;

/**
 * A token of ours signed ES256: its signature checked with node:crypto (es256.ts: half WebCrypto's
 * CPU, which jose's `jwtVerify` runs), then its claims (exp, nbf, iat, aud) by jose as `jwtVerify`
 * checks them, on its payload as an unsecured JWT.
 */
const asymmetricPayload = async (
  ctx: Context,
  token: string,
  header: ProtectedHeaderParameters,
): Promise<JWTPayload> => {
  const key = await verificationKey(ctx, String(header.kid));
  if (key === undefined) throw new errors.JWKSNoMatchingKey();
  const [encodedHeader, encodedPayload, signature, ...more] = token.split('.');
  if (encodedPayload === undefined || signature === undefined || more.length > 0 || header.crit !== undefined)
    throw new errors.JWSInvalid('not a compact JWS of ours');
  const input = `${encodedHeader}.${encodedPayload}`;
  if (!ES256_SIGNATURE.test(signature) || !verifyEs256(key, input, Buffer.from(signature, 'base64url')))
    throw new errors.JWSSignatureVerificationFailed();
  const { payload } = UnsecuredJWT.decode(`${UNSECURED_HEADER}.${encodedPayload}.`, {
    currentDate: new Date(ctx.now()),
    audience: Object.keys(ctx.config.products),
  });
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  if (!scopes.includes(ACCOUNT_SCOPE))
    throw new errors.JWTClaimValidationFailed('not an account token', payload, 'scope');
  return payload;
};

const verifiedPayload = (ctx: Context, token: string): Promise<JWTPayload> => {
  const header = decodeProtectedHeader(token);
  if (header.alg === 'HS256') return legacyPayload(ctx, token);
  if (header.alg !== SIGNING_ALG || typeof header.kid !== 'string') throw new errors.JOSEAlgNotAllowed('alg');
  return asymmetricPayload(ctx, token, header);
};

/**
 * Claims of tokens signed here or whose signature was checked, so a client's calls skip the signature:
 * bounded (the oldest go first), each until its `exp` (the session itself is checked on every call,
 * through the session cache, so a sign-out still takes effect at once).
 */
const VERIFIED_CACHE_SIZE = 10_000;
const verifiedByContext = new WeakMap<Context, Map<string, AccessClaims>>();

const remembered = (ctx: Context) => {
  let verified = verifiedByContext.get(ctx);
  if (verified === undefined) {
    verified = new Map();
    verifiedByContext.set(ctx, verified);
  }
  return verified;
};

const remember = (ctx: Context, token: string, claims: AccessClaims) => {
  const verified = remembered(ctx);
  if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
  verified.set(token, claims);
};

/** The claims of a token signed here or whose signature was checked, and that has not expired; else undefined. */
export const rememberedClaims = (ctx: Context, token: string): AccessClaims | undefined => {
  const verified = remembered(ctx);
  const cached = verified.get(token);
  if (cached === undefined) return undefined;
  if (cached.exp * 1000 > ctx.now()) return cached;
  verified.delete(token);
  return undefined;
};

/** The claims of a valid token; 10000000 (clients refresh) when expired, forged or not ours. */
export const accessTokenClaims = async (ctx: Context, token: string): Promise<AccessClaims> => {
  const cached = rememberedClaims(ctx, token);
  if (cached !== undefined) return cached;
  let payload: JWTPayload;
  try {
    payload = await verifiedPayload(ctx, token);
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) throw new ApiError('10000000');
    throw error;
  }
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string') throw new ApiError('10000000');
  const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
  const claims: AccessClaims = {
    userId,
    sessionId: payload.sid,
    exp: payload.exp ?? 0,
    iat: payload.iat ?? 0,
    aud: aud ?? defaultPid(ctx),
    scope: typeof payload.scope === 'string' ? payload.scope : ACCOUNT_SCOPE,
  };
  remember(ctx, token, claims);
  return claims;
};
