/**
 * The signed-in devices of the account centre: the owner's live sessions, and ending one at once. A
 * session is named to its owner by its stored key (a hash of its id), never by the id its tokens carry.
 */
import type { SessionSummary } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import type { User } from '../../store/schema.ts';
import { liveDevices, ownedSession, revokeOwnedSession } from '../../store/sessions/devices.ts';
import { sessionKey } from '../../store/sessions/sessions.ts';
import { requireStepUp } from '../sign-in/step-up.ts';
import { endSessions } from './ending.ts';
import type { SignedInSession } from './tokens.ts';

/**
 * The caller's sessions that can still be used: not ended, and with a refresh token or a session token
 * not expired yet. The caller's own first, then the most recently active.
 */
export const listDevices = (ctx: Context, session: SignedInSession): Promise<SessionSummary[]> =>
  devicesOf(ctx, session.userId, sessionKey(session.sessionId));

/** The user's live sessions (`own`: the stored key of the one asking, listed first and kept however old). */
export const devicesOf = async (ctx: Context, userId: number, own?: string): Promise<SessionSummary[]> => {
  const now = ctx.now();
  const sessionTokenMs = ctx.config.sessionTokenTtlSeconds * 1000;
  const devices = (await liveDevices(ctx.db, userId))
    .filter((row) => row.id === own || (row.refresh_expires_at ?? 0) > now || row.created_at + sessionTokenMs > now)
    .map((row) => ({
      id: row.id,
      user_agent: row.user_agent,
      ip: row.ip,
      method: row.method,
      created_at: row.created_at,
      last_active_at: Math.max(row.created_at, row.refreshed_at ?? 0),
      current: row.id === own,
    }));
  return devices.sort((a, b) => Number(b.current) - Number(a.current) || b.last_active_at - a.last_active_at);
};

/**
 * Ends one of the user's sessions: its access tokens stop at once (the session cache forgets the
 * user's sessions after the commit) and its refresh token is refused. One `session.ended` event however
 * many ask at once; a session already ended is done; another user's, or an unknown one, is E_2.
 * `reason`: who ended it (the owner, or a linked guardian for a child).
 */
export const endDeviceOf = async (ctx: Context, user: Pick<User, 'id' | 'pid'>, key: string, reason: string) => {
  const owned = await ownedSession(ctx.db, user.id, key);
  if (owned === undefined) return fail('E_2');
  if (!owned.live) return;
  await endSessions(ctx, user, (db, now) => revokeOwnedSession(db, user.id, key, now), { sessions: 'one', reason });
};

/**
 * Ends one of the caller's own sessions (`endDeviceOf`). Another device's asks for a recent proof
 * first (step-up): a token lifted from one device must not sign its owner out of the others, where
 * they would see and end it. The caller's own is a sign-out and asks for nothing.
 */
export const endDevice = async (ctx: Context, session: SignedInSession, key: string, ip: string) => {
  if (key !== sessionKey(session.sessionId)) await requireStepUp(ctx, session, 'endSession', ip);
  await endDeviceOf(ctx, session.user, key, 'signed_out_by_owner');
};
