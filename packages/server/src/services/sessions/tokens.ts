/**
 * Sessions and tokens. The access token is a short-lived JWT naming the user and session
 * (services/sessions/access-tokens.ts); the refresh token is opaque, stored hashed, and rotated on every use.
 * A successor is derived from its parent with a keyed hash, so a refresh retried within the grace window (two tabs, a lost answer)
 * gets the same successor — one rotation chain — while reuse after the window revokes the session.
 */
import { randomUUID } from 'node:crypto';
import type { TokenSet } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { ApiError, fail } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import type { User } from '../../store/schema.ts';
import { findRefreshToken, insertRefreshToken } from '../../store/sessions/refresh-tokens.ts';
import {
  copySession,
  findLiveSession,
  insertSession,
  revokeSession,
  revokeSessionByKey,
  sessionChain,
  sessionKey,
} from '../../store/sessions/sessions.ts';
import { endApplicationSessions } from '../identity/application-sessions.ts';
import { securityEvent } from '../security/events.ts';
import { hmac, randomToken, sha256 } from '../security/hashing.ts';
import { inTransaction, recordEvent, withEvent } from '../webhooks/events.ts';
import { accessTokenClaims, rememberedClaims, signAccessToken } from './access-tokens.ts';
import { endSessions } from './ending.ts';
import { idleCheckDue, idleSignOut, staffSessionActive } from './idle.ts';

const TOKEN_TYPE = 'Bearer';

export interface SessionRef {
  userId: number;
  sessionId: string;
  /** The product the session was started for (its tokens' audience). */
  pid?: string | null | undefined;
}

/** A checked session and its user as read with it. */
export interface SignedInSession extends SessionRef {
  user: User;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** The configured product the client named, if any. */
  pid?: string | undefined;
}

const signAccess = (ctx: Context, ref: SessionRef, ttlSeconds: number) => signAccessToken(ctx, ref, ttlSeconds);

/** The stored row of a refresh token of a session. */
const refreshRow = (ctx: Context, sessionId: string, token: string) => ({
  token_hash: sha256(token),
  session_id: sessionKey(sessionId),
  created_at: ctx.now(),
  expires_at: ctx.now() + ctx.config.refreshTokenTtlSeconds * 1000,
});

const storeRefresh = async (ctx: Context, sessionId: string, token: string) => {
  await insertRefreshToken(ctx.db, refreshRow(ctx, sessionId, token));
};

/**
 * The token set of a session around its refresh token. Signed through the server's own context, not a
 * transaction's: the signing keys are cached per context (signing-keys.ts).
 */
export const tokenSet = async (ctx: Context, ref: SessionRef, refreshToken: string): Promise<TokenSet> => ({
  access: {
    token: await signAccess(ctx, ref, ctx.config.accessTokenTtlSeconds),
    type: TOKEN_TYPE,
    expires_in: ctx.config.accessTokenTtlSeconds,
  },
  refresh: { token: refreshToken, expires_in: ctx.config.refreshTokenTtlSeconds },
});

/** The plain-string session token of clients that send no Auth-Version (also the cookie). */
export const issueSessionToken = (ctx: Context, ref: SessionRef) =>
  signAccess(ctx, ref, ctx.config.sessionTokenTtlSeconds);

/**
 * Starts a session, with its `session.started` event in the same transaction when an endpoint
 * subscribes to it (`withEvent`), and a refresh chain when the client asked for a token set
 * (`refreshChain`: its first token, stored with the session).
 * `secondFactor`: its sign-in passed the second factor; `staff`: a staff session (idle time-out).
 */
export const startSession = async (
  ctx: Context,
  user: Pick<User, 'id' | 'pid'>,
  method: string,
  client: ClientInfo,
  { secondFactor = false, staff = false, refreshChain = false } = {},
): Promise<{ ref: SessionRef; refreshToken: string | null }> => {
  const ref: SessionRef = { userId: user.id, sessionId: randomUUID(), pid: client.pid ?? null };
  const refreshToken = refreshChain ? `${ref.sessionId}.${randomToken()}` : null;
  const event = {
    type: 'session.started' as const,
    userId: user.id,
    product: user.pid,
    data: { session_id: ref.sessionId, method },
  };
  const stored = () =>
    withEvent(ctx, event, (db) =>
      insertSession(
        db,
        {
          id: ref.sessionId,
          user_id: user.id,
          method,
          ip: client.ip,
          user_agent: client.userAgent.slice(0, 512),
          created_at: ctx.now(),
          revoked_at: null,
          pid: client.pid ?? null,
          second_factor_at: secondFactor ? ctx.now() : null,
          staff: staff ? 1 : 0,
        },
        refreshToken === null ? undefined : refreshRow(ctx, ref.sessionId, refreshToken),
      ),
    );
  // The session's user, read with its writes, is remembered as the session's first read would
  // remember it (the sign-in's next call authenticates with the new token), once those writes have
  // committed: not inside a caller's transaction, which may yet roll back. A forget meanwhile wins.
  await (ctx.db.isTransaction ? stored() : ctx.sessions.read(ref.sessionId, stored));
  return { ref, refreshToken };
};

/**
 * Checks an access or session token and its session. Expired or forged → 10000000 (clients refresh);
 * an ended session → E_0; a blocked user → AC3_44. The session comes from the session cache: a
 * sign-out, a password change or a block takes effect at once in this process (and in every process
 * with REDIS_URL), and within SESSION_CACHE_SECONDS in other processes without it.
 */
export const authenticate = async (ctx: Context, token: string): Promise<SignedInSession> => {
  const { userId, sessionId } = await accessTokenClaims(ctx, token);
  const user = await ctx.sessions.read(sessionId, () => findLiveSession(ctx.db, sessionId));
  if (!user || user.id !== userId) throw new ApiError('E_0');
  if (user.blocked_at !== null) throw new ApiError('AC3_44');
  if (!(await staffSessionActive(ctx, sessionId, user))) {
    await endSessions(
      ctx,
      user,
      (db, now) => revokeSession(db, sessionId, now),
      { session_id: sessionId, reason: 'idle' },
      sessionId,
    );
    throw idleSignOut(ctx, userId);
  }
  return { userId, sessionId, user };
};

/**
 * What `authenticate` would answer, from memory alone: the session when its token was verified
 * before and has not expired, and its session is remembered live with a user who is not blocked.
 * Anything else (a refusal included) is undefined, for `authenticate` to work out.
 */
export const rememberedSession = (ctx: Context, token: string): SignedInSession | undefined => {
  const claims = rememberedClaims(ctx, token);
  if (claims === undefined) return undefined;
  const user = ctx.sessions.peek(claims.sessionId);
  if (user === undefined || user.id !== claims.userId || user.blocked_at !== null) return undefined;
  // A staff session's call is written once a minute: that one goes the whole way.
  if (idleCheckDue(ctx, user)) return undefined;
  return { userId: claims.userId, sessionId: claims.sessionId, user };
};

/** Ends one session, in the database and in the sessions remembered in memory. */
export const endSession = (ctx: Context, session: SignedInSession) =>
  endSessions(
    ctx,
    session.user,
    (db, now) => revokeSession(db, session.sessionId, now),
    { session_id: session.sessionId, reason: 'sign_out' },
    session.sessionId,
  );

/** Ends a session known only by its key (its id is not at hand); forgets its user's remembered sessions. */
export const endSessionByKey = async (ctx: Context, key: string, userId: number, reason: string) => {
  try {
    await inTransaction(ctx, async (tx) => {
      const ended = await revokeSessionByKey(tx.db, key, ctx.now());
      const user = Number(ended.numUpdatedRows) === 0 ? undefined : await findUserById(tx.db, userId);
      if (user !== undefined) {
        await recordEvent(tx, { type: 'session.ended', userId, product: user.pid, data: { reason } });
        await endApplicationSessions(tx, userId);
      }
    });
  } finally {
    ctx.sessions.forgetUser(userId);
  }
};

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The session id a refresh token starts with (`<session id>.<secret>`); undefined for older tokens. */
const sessionIdOf = (refreshToken: string) => {
  const dot = refreshToken.indexOf('.');
  const id = dot < 0 ? '' : refreshToken.slice(0, dot);
  return SESSION_ID.test(id) ? id : undefined;
};

/** A stable new id for a refresh chain from before ids were hashed: the same token gets the same id. */
const rekeyedSessionId = (ctx: Context, refreshToken: string) => {
  const hex = Buffer.from(hmac(ctx.keys.refresh, `session-id:${refreshToken}`), 'base64url').toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

export const refreshTokens = async (ctx: Context, refreshToken: string): Promise<TokenSet> => {
  const now = ctx.now();
  // A chain from before session ids were hashed carries no id: it continues in a copy of its
  // session under a new id, which the successor and the new access token carry.
  const carried = sessionIdOf(refreshToken);
  const sessionId = carried ?? rekeyedSessionId(ctx, refreshToken);
  const successor = `${sessionId}.${hmac(ctx.keys.refresh, refreshToken)}`;
  const row = await findRefreshToken(ctx.db, sha256(refreshToken), sha256(successor));
  if (!row || row.revoked_at !== null || row.expires_at <= now) return fail('10000001');
  if (carried !== undefined && sessionKey(carried) !== row.session_id) return fail('10000001');
  if (now - row.session_created_at >= ctx.config.sessionMaxAgeSeconds * 1000) {
    // Past the absolute age (SESSION_MAX_AGE) a session ends however often it was refreshed.
    await endSessionByKey(ctx, row.session_id, row.user_id, 'max_age');
    return fail('10000001');
  }
  if (row.blocked_at !== null) return fail('AC3_44');
  if (row.rotated_at !== null && now - row.rotated_at > ctx.config.refreshGraceSeconds * 1000) {
    // Reuse of a spent token: someone holds a copy. End the whole session.
    await endSessionByKey(ctx, row.session_id, row.user_id, 'refresh_reuse');
    securityEvent(ctx, {
      event: 'refresh_reuse',
      userId: row.user_id,
      reason: 'a rotated refresh token came back after the grace window; session revoked',
    });
    return fail('10000001');
  }
  if (carried === undefined) await copySession(ctx.db, row.session_id, sessionId);
  // Storing the successor is the rotation. Refreshes racing with one token store it once (the
  // others' inserts are no-ops) and all answer it; so does a retry within the grace window.
  if (row.rotated_at === null) await storeRefresh(ctx, sessionId, successor);
  return tokenSet(ctx, { userId: row.user_id, sessionId, pid: row.pid }, successor);
};

/** The first refresh token of a converted legacy session: the same for every conversion of that session. */
const convertedRoot = (ctx: Context, sessionId: string) =>
  `${sessionId}.${hmac(ctx.keys.refresh, `convert:${sessionId}`)}`;

/**
 * Converts a legacy session token (cookie or Bearer) into a token set for the same session. Only a
 * session without a refresh chain of its own is a legacy one (a session signed in with Auth-Version has
 * a chain, and its access token is no cookie to convert); its chain starts at one root, the same for
 * every conversion, so two tabs converting at once get one chain, rotated and checked for reuse like
 * any other. Once that chain has moved on, the cookie converts no more.
 */
export const convertSessionToken = async (ctx: Context, token: string | undefined): Promise<TokenSet> => {
  if (!token) return fail('10000002');
  let ref: SessionRef;
  try {
    ref = await authenticate(ctx, token);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'AC3_44') throw error;
    return fail('10000002');
  }
  const root = convertedRoot(ctx, ref.sessionId);
  const chain = (await sessionChain(ctx.db, ref.sessionId)) ?? fail('10000002');
  // Once the root's successor is stored, the chain has moved on.
  if (chain.tokenHashes.some((hash) => hash !== sha256(root))) return fail('10000002');
  await storeRefresh(ctx, ref.sessionId, root);
  return tokenSet(ctx, { ...ref, pid: chain.pid }, root);
};
