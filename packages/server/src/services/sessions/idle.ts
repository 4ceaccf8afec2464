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
import { type SessionUser, touchLiveSession } from '../../store/sessions/sessions.ts';
import { securityEvent } from '../security/events.ts';

/** How often a staff session's last call is written at most. */
export const TOUCH_EVERY_MS = 60_000;

const lastCall = (user: SessionUser) => Number(user.session_last_active_at ?? user.session_created_at ?? 0);

/** Whether the session is a staff one, with the idle time-out (its memberships answer names the minutes). */
export const isStaffSession = (user: SessionUser): boolean => user.session_staff === 1;

/** Whether `authenticate` must look at this session's idle time-out (a memory-only answer must not). */
export const idleCheckDue = (ctx: Context, user: SessionUser): boolean =>
  isStaffSession(user) && ctx.config.staffIdleMinutes > 0 && ctx.now() - lastCall(user) >= TOUCH_EVERY_MS;

/**
 * Records a staff session's call; false, writing nothing, when it has been idle past the time-out (or
 * was ended): `authenticate` then ends it and answers `idleSignOut`. `user` is the session's row as read
 * or remembered; its `session_last_active_at` is moved on when written.
 */
export const staffSessionActive = async (ctx: Context, sessionId: string, user: SessionUser): Promise<boolean> => {
  if (!idleCheckDue(ctx, user)) return true;
  const now = ctx.now();
  if (!(await touchLiveSession(ctx.db, sessionId, now, now - ctx.config.staffIdleMinutes * 60_000))) return false;
  user.session_last_active_at = now;
  return true;
};

/** The answer to a call of a session ended for idleness (E_0, saying so), logged as a security event. */
export const idleSignOut = (ctx: Context, userId: number): ApiError => {
  const minutes = ctx.config.staffIdleMinutes;
  securityEvent(ctx, { event: 'idle_sign_out', userId, reason: `${minutes} minutes` });
  return new ApiError('E_0', `Signed out after ${minutes} minutes without activity. Please login.`);
};
