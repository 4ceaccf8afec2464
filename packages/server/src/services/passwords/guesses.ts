/**
 * A password typed to prove who one is (sign-in, the old password of a change, a step-up): one
 * place taken under the account's lock before the hash is checked, a security event for each
 * wrong guess and each refusal by the lock.
 */
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { findUserByIdentity } from '../../store/account/users.ts';
import { type SecurityEvent, type SecurityEventName, securityEvent } from '../security/events.ts';
import {
  type CountWithPlace,
  type LoginAttempt,
  lockedError,
  lockSecondsLeft,
  loginLockKey,
  reserveLoginAttempt,
} from '../security/rate-limits.ts';
import { assertHashRoom, verifyAgainstNothing, verifyPassword } from './argon2.ts';
import { isInitialPassword, SEALED_INITIAL_PASSWORD } from './initial-passwords.ts';

export interface PasswordGuess {
  /** What the lock counts under (rate-limits' loginLockKey). */
  lockKey: string;
  /** The stored hash; none (no such user, no password set) checks against nothing in the same time. */
  passwordHash: string | null | undefined;
  password: string;
  /** For the security log. */
  userId?: number | undefined;
  identity?: string | undefined;
  ip?: string | undefined;
  /** The event a wrong guess logs. */
  failure: SecurityEventName;
  /** Counts a right guess ends besides the lock's failures (the captcha gate's run of unchallenged sign-ins). */
  resetOnRight?: readonly string[] | undefined;
  /** A count taken with the guess's place and judged before the guess is checked (the captcha gate's). */
  withPlace?: CountWithPlace | undefined;
}

/** Reserves one attempt against a lock (rate-limits.ts), logging a refusal by the lock as `login_locked`. */
export const reserveLoggedAttempt = async (
  ctx: Context,
  lockKey: string,
  who: Pick<SecurityEvent, 'userId' | 'identity' | 'ip'>,
  what: string,
  withPlace?: CountWithPlace,
): Promise<LoginAttempt> => {
  try {
    return await reserveLoginAttempt(ctx, lockKey, withPlace);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'E_5') {
      securityEvent(ctx, { event: 'login_locked', ...who, reason: `too many failed attempts (${what})` });
    }
    throw error;
  }
};

/** The lock a password sign-in as `identity` counts under: its account's, else the identity's. */
export const signInLockKey = async (ctx: Context, identity: string) =>
  loginLockKey(await findUserByIdentity(ctx.db, identity), identity);

/**
 * While the lock holds, the answer is the lock: E_5 with the seconds left, before anything else is
 * asked of the caller (no puzzle to solve only to be refused). Nothing is checked, so this early
 * refusal opens nothing; a guess past it still reserves its attempt atomically. `failures`: the lock's
 * count, when the caller read it already.
 */
export const refuseWhileLocked = async (
  ctx: Context,
  lockKey: string,
  who: Pick<SecurityEvent, 'userId' | 'identity' | 'ip'>,
  what: string,
  failures?: number,
): Promise<void> => {
  const seconds = await lockSecondsLeft(ctx, lockKey, failures);
  if (seconds === 0) return;
  ctx.metrics.loginLocks.inc();
  securityEvent(ctx, { event: 'login_locked', ...who, reason: `too many failed attempts (${what})` });
  throw lockedError(seconds);
};

/** Checks the guess against the stored hash, a pupil's sealed initial password, or nothing (same time). */
const guessMatches = (ctx: Context, guess: PasswordGuess): Promise<boolean> => {
  if (!guess.passwordHash) return verifyAgainstNothing(guess.password, ctx.config.passwordHashing);
  if (guess.passwordHash === SEALED_INITIAL_PASSWORD && guess.userId !== undefined) {
    return isInitialPassword(ctx, guess.userId, guess.password);
  }
  return verifyPassword(guess.passwordHash, guess.password);
};

/** Whether the guess is right; E_5 when the lock refuses it unchecked. */
export const checkPasswordGuess = async (ctx: Context, guess: PasswordGuess): Promise<boolean> => {
  const who = {
    ...(guess.userId === undefined ? {} : { userId: guess.userId }),
    ...(guess.identity === undefined ? {} : { identity: guess.identity }),
    ...(guess.ip === undefined ? {} : { ip: guess.ip }),
  };
  // A full hash queue answers E_10 before the attempt is reserved: a refused guess is no failure.
  assertHashRoom();
  const attempt = await reserveLoggedAttempt(ctx, guess.lockKey, who, guess.failure, guess.withPlace);
  let ok: boolean;
  try {
    ok = await guessMatches(ctx, guess);
  } catch (error) {
    // Not checked (the queue filled between the two, or the check failed): no failure is counted.
    await attempt.unchecked();
    throw error;
  }
  if (!ok) {
    await attempt.failed();
    ctx.metrics.loginFailures.inc();
    securityEvent(ctx, {
      event: guess.failure,
      ...who,
      reason: guess.passwordHash ? 'wrong password' : 'no password to check',
    });
    return false;
  }
  await attempt.succeeded(guess.resetOnRight);
  return true;
};
