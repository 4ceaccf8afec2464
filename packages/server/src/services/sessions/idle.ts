/**
 * The idle time-out of console and teaching sessions (GB/T 22239-2019 level 3: automatic sign-out after
 * inactivity): a session signed in by staff (`sessions.staff`) ends after STAFF_IDLE_MINUTES without a
 * call, and its next call answers E_0 saying so. Pupils' and families' sessions have none.
 *
 * The last call is written at most once a minute (`TOUCH_EVERY_MS`), not on every request: a call
 * within a minute of the last write reads the session as it is remembered and writes nothing. An older
 * one writes `last_active_at` in a statement that also checks the time-out, so the time-out is exact
 * to within that minute, and the session is ended when the statement finds it idle.
 */
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import type { SessionUser } from '../../store/sessions/sessions.ts';
import { revokeSession, touchLiveSession } from '../../store/sessions/sessions.ts';
import { securityEvent } from '../security/events.ts';
import { endSessions } from './ending.ts';

/** How often a staff session's last call is written at most. */
export const TOUCH_EVERY_MS = 60_000;

const lastCall = (user: SessionUser) => Number(user.session_last_active_at ?? user.session_created_at ?? 0);

/** Whether `authenticate` must look at this session's idle time-out (a memory-only answer must not). */
export const idleCheckDue = (ctx: Context, user: SessionUser): boolean =>
  user.session_staff === 1 && ctx.config.staffIdleMinutes > 0 && ctx.now() - lastCall(user) >= TOUCH_EVERY_MS;

/**
 * Records a staff session's call, or ends it when it has been idle past the time-out (E_0). `user` is
 * the session's row as read or remembered; its `session_last_active_at` is moved on when written.
 */
export const touchStaffSession = async (ctx: Context, sessionId: string, user: SessionUser): Promise<void> => {
  if (!idleCheckDue(ctx, user)) return;
  const now = ctx.now();
  const minutes = ctx.config.staffIdleMinutes;
  if (await touchLiveSession(ctx.db, sessionId, now, now - minutes * 60_000)) {
    user.session_last_active_at = now;
    return;
  }
  await endSessions(
    ctx,
    user,
    (db, at) => revokeSession(db, sessionId, at),
    { session_id: sessionId, reason: 'idle' },
    sessionId,
  );
  securityEvent(ctx, { event: 'idle_sign_out', userId: user.id, reason: `${minutes} minutes` });
  throw new ApiError('E_0', `Signed out after ${minutes} minutes without activity. Please login.`);
};
