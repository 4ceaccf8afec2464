/**
 * Sessions and tokens. The access token is a short-lived HS256 JWT naming the user and session; the
 * refresh token is opaque, stored hashed, and rotated on every use. A successor is derived from its
 * parent with a keyed hash, so a refresh retried within the grace window (two tabs, a lost answer)
 * gets the same successor — one rotation chain — while reuse after the window revokes the session.
 */
import { randomUUID } from 'node:crypto';
import type { TokenSet } from '@edupass/protocol';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Context } from '../context.ts';
import { ApiError, fail } from '../errors.ts';
import type { User } from '../store/schema.ts';
import {
  findLiveSession,
  findRefreshToken,
  insertRefreshToken,
  insertSession,
  markRotated,
  revokeSession,
} from '../store/sessions.ts';
import { hmac, randomToken, sha256 } from './hashing.ts';
import { securityEvent } from './security-events.ts';

const TOKEN_TYPE = 'Bearer';

export interface SessionRef {
  userId: number;
  sessionId: string;
}

/** A checked session and its user as read with it. */
export interface SignedInSession extends SessionRef {
  user: User;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const signAccess = (ctx: Context, ref: SessionRef, ttlSeconds: number) =>
  new SignJWT({ sid: ref.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(ref.userId))
    .setIssuedAt(Math.floor(ctx.now() / 1000))
    .setExpirationTime(Math.floor(ctx.now() / 1000) + ttlSeconds)
    .sign(ctx.keys.jwt);

const storeRefresh = async (ctx: Context, sessionId: string, token: string) => {
  await insertRefreshToken(ctx.db, {
    token_hash: sha256(token),
    session_id: sessionId,
    created_at: ctx.now(),
    expires_at: ctx.now() + ctx.config.refreshTokenTtlSeconds * 1000,
    rotated_at: null,
  });
};

const tokenSet = async (ctx: Context, ref: SessionRef, refreshToken: string): Promise<TokenSet> => ({
  access: {
    token: await signAccess(ctx, ref, ctx.config.accessTokenTtlSeconds),
    type: TOKEN_TYPE,
    expires_in: ctx.config.accessTokenTtlSeconds,
  },
  refresh: { token: refreshToken, expires_in: ctx.config.refreshTokenTtlSeconds },
});

/** The token set of a session: a new refresh chain for it. */
export const issueTokenSet = async (ctx: Context, ref: SessionRef): Promise<TokenSet> => {
  const refreshToken = randomToken();
  await storeRefresh(ctx, ref.sessionId, refreshToken);
  return tokenSet(ctx, ref, refreshToken);
};

/** The plain-string session token of clients that send no Auth-Version (also the cookie). */
export const issueSessionToken = (ctx: Context, ref: SessionRef) =>
  signAccess(ctx, ref, ctx.config.sessionTokenTtlSeconds);

export const startSession = async (ctx: Context, userId: number, method: string, client: ClientInfo) => {
  const ref: SessionRef = { userId, sessionId: randomUUID() };
  await insertSession(ctx.db, {
    id: ref.sessionId,
    user_id: userId,
    method,
    ip: client.ip,
    user_agent: client.userAgent.slice(0, 512),
    created_at: ctx.now(),
    revoked_at: null,
  });
  return ref;
};

interface Claims {
  userId: number;
  sessionId: string;
  exp: number;
}

/**
 * Claims of tokens whose signature was checked, so a client's repeated calls skip the HMAC. Kept per
 * signing key: a token checked against one context's key says nothing to a context with another.
 */
const verifiedClaimsByKey = new WeakMap<CryptoKey, Map<string, Claims>>();
const VERIFIED_CACHE_SIZE = 10_000;

const tokenClaims = async (ctx: Context, token: string): Promise<Claims> => {
  const nowSeconds = ctx.now() / 1000;
  let verifiedClaims = verifiedClaimsByKey.get(ctx.keys.jwt);
  if (verifiedClaims === undefined) {
    verifiedClaims = new Map();
    verifiedClaimsByKey.set(ctx.keys.jwt, verifiedClaims);
  }
  const cached = verifiedClaims.get(token);
  if (cached && cached.exp > nowSeconds) return cached;
  let payload: { sub?: string; sid?: unknown; exp?: number };
  try {
    ({ payload } = await jwtVerify(token, ctx.keys.jwt, {
      algorithms: ['HS256'],
      currentDate: new Date(ctx.now()),
    }));
  } catch (error) {
    if (error instanceof errors.JOSEError) throw new ApiError('10000000');
    throw error;
  }
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string') throw new ApiError('10000000');
  const claims = { userId, sessionId: payload.sid, exp: payload.exp ?? 0 };
  if (verifiedClaims.size >= VERIFIED_CACHE_SIZE) verifiedClaims.delete(verifiedClaims.keys().next().value as string);
  verifiedClaims.set(token, claims);
  return claims;
};

/**
 * Checks an access or session token and its session. Expired or forged → 10000000 (clients refresh);
 * an ended session → E_0; a blocked user → AC3_44. The session comes from the session cache: a
 * sign-out, a password change or a block takes effect at once in this process (and in every process
 * with REDIS_URL), and within SESSION_CACHE_SECONDS in other processes without it.
 */
export const authenticate = async (ctx: Context, token: string): Promise<SignedInSession> => {
  const { userId, sessionId } = await tokenClaims(ctx, token);
  const user = await ctx.sessions.read(sessionId, () => findLiveSession(ctx.db, sessionId));
  if (!user || user.id !== userId) throw new ApiError('E_0');
  if (user.blocked_at !== null) throw new ApiError('AC3_44');
  return { userId, sessionId, user };
};

/** Ends one session, in the database and in the sessions remembered in memory. */
export const endSession = async (ctx: Context, sessionId: string) => {
  try {
    await revokeSession(ctx.db, sessionId, ctx.now());
  } finally {
    ctx.sessions.forgetSession(sessionId);
  }
};

export const refreshTokens = async (ctx: Context, refreshToken: string): Promise<TokenSet> => {
  const now = ctx.now();
  const row = await findRefreshToken(ctx.db, sha256(refreshToken));
  if (!row || row.revoked_at !== null || row.expires_at <= now) return fail('10000001');
  const ref: SessionRef = { userId: row.user_id, sessionId: row.session_id };
  const user = await findLiveSession(ctx.db, row.session_id);
  if (user?.blocked_at != null) return fail('AC3_44');
  const successor = hmac(ctx.keys.refresh, refreshToken);
  const won = row.rotated_at === null && (await markRotated(ctx.db, row.token_hash, now));
  if (!won) {
    const rotatedAt = row.rotated_at ?? now;
    if (now - rotatedAt > ctx.config.refreshGraceSeconds * 1000) {
      // Reuse of a spent token: someone holds a copy. End the whole session.
      await endSession(ctx, row.session_id);
      securityEvent(ctx, {
        event: 'refresh_reuse',
        userId: row.user_id,
        reason: 'a rotated refresh token came back after the grace window; session revoked',
      });
      return fail('10000001');
    }
  }
  await storeRefresh(ctx, row.session_id, successor);
  return tokenSet(ctx, ref, successor);
};

/** Converts a legacy session token (cookie or Bearer) into a token set for the same session. */
export const convertSessionToken = async (ctx: Context, token: string | undefined): Promise<TokenSet> => {
  if (!token) return fail('10000002');
  let ref: SessionRef;
  try {
    ref = await authenticate(ctx, token);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'AC3_44') throw error;
    return fail('10000002');
  }
  return issueTokenSet(ctx, ref);
};
