/** Rate limits on code sends, shared by every server process through the counters. */
import { DAY_SECONDS, HOUR_SECONDS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { RefusedForNow } from '../../errors.ts';
import { countedAddress } from './counted-address.ts';

const resendKey = (target: string, scene: string) => `code-resend:${scene}:${target}`;

/** A send that never arrived does not make the user wait out the resend interval. */
export const releaseResendWait = (ctx: Context, target: string, scene: string) =>
  ctx.counters.reset(resendKey(target, scene));

/** Refuses with `code`, telling the seconds left in the window of the counter `key`. */
const refuseUntilWindowEnds = async (ctx: Context, code: 'AC3_23' | 'AC3_48', key: string): Promise<never> => {
  throw new RefusedForNow(code, await ctx.counters.ttl(key));
};

/** Code sends from one IP refused because the identity is not registered (or already is), per hour. */
export const identityRefusalKey = (ctx: Pick<Context, 'config'>, ip: string) =>
  `code-refused-identity:ip:${countedAddress(ctx, ip)}`;

/**
 * Counts a send refused with an answer that tells whether the identity is registered (AC3_0, AC3_1,
 * AC3_26, AC3_61). Atomically: past CODE_IP_REFUSAL_HOURLY_LIMIT the refusal itself becomes AC3_23,
 * so of a parallel burst no more than the limit learn anything.
 */
export const countIdentityRefusal = async (ctx: Context, ip: string): Promise<void> => {
  const key = identityRefusalKey(ctx, ip);
  if ((await ctx.counters.hit(key, HOUR_SECONDS)) > ctx.config.codeIpRefusalHourlyLimit) {
    await refuseUntilWindowEnds(ctx, 'AC3_23', key);
  }
};

/**
 * Counts one send to `target` from `ip` for `scene`, refusing with AC3_23 when the same code is asked
 * again within the resend interval or the IP sends too many, and AC3_48 past the daily limit; each
 * refusal carries the seconds until that window ends (`retry_after`).
 */
export const limitCodeSend = async (ctx: Context, target: string, scene: string, ip: string): Promise<void> => {
  const { codeIpHourlyLimit, codeResendSeconds, codeDailyLimit, codeIpRefusalHourlyLimit } = ctx.config;
  // An IP whose sends were refused as unregistered (or registered) too often gets no answer that tells.
  const refusals = identityRefusalKey(ctx, ip);
  if ((await ctx.counters.peek(refusals)) >= codeIpRefusalHourlyLimit)
    await refuseUntilWindowEnds(ctx, 'AC3_23', refusals);
  const ipKey = `code-ip:${countedAddress(ctx, ip)}`;
  if ((await ctx.counters.hit(ipKey, HOUR_SECONDS)) > codeIpHourlyLimit)
    await refuseUntilWindowEnds(ctx, 'AC3_23', ipKey);
  const resend = resendKey(target, scene);
  if (codeResendSeconds > 0 && (await ctx.counters.hit(resend, codeResendSeconds)) > 1) {
    await refuseUntilWindowEnds(ctx, 'AC3_23', resend);
  }
  const dayKey = `code-day:${target}`;
  if ((await ctx.counters.hit(dayKey, DAY_SECONDS)) > codeDailyLimit)
    await refuseUntilWindowEnds(ctx, 'AC3_48', dayKey);
};

const loginKey = (identity: string) => `login-fail:${identity.toLowerCase()}`;

/** What failed logins are counted under: the account, whichever of its identities the guesses use. */
export const loginLockKey = (user: { id: number } | undefined, identity: string) =>
  user ? `user:${user.id}` : identity;

export const loginFailureCount = (ctx: Context, lockKey: string) => ctx.counters.peek(loginKey(lockKey));

/**
 * A guess that holds one of the lock's attempts: `succeeded` gives it back and clears the earlier
 * failures; `unchecked` gives it back alone (the guess was never checked: the server was too busy).
 */
export interface LoginAttempt {
  succeeded(): Promise<void>;
  unchecked(): Promise<void>;
}

/**
 * Reserves one attempt before a password is checked, so parallel guesses cannot all read "no
 * failures yet": the counter's atomic increment decides which ones are checked. Past the limit the
 * guess is refused with E_5 unchecked; after a few failures it is slowed down (the delay doubles with
 * each failure, capped at 8× the base). A wrong guess keeps its reservation: that is the failure.
 */
export const reserveLoginAttempt = async (ctx: Context, lockKey: string): Promise<LoginAttempt> => {
  const { loginSlowdownAfter, loginLockAfter, loginSlowdownMs, loginLockSeconds } = ctx.config;
  const key = loginKey(lockKey);
  const attempt = await ctx.counters.hit(key, loginLockSeconds);
  if (attempt > loginLockAfter) {
    ctx.metrics.loginLocks.inc();
    throw lockedError(await ctx.counters.ttl(key));
  }
  const failuresBefore = attempt - 1;
  if (failuresBefore >= loginSlowdownAfter && loginSlowdownMs > 0) {
    const delay = loginSlowdownMs * 2 ** Math.min(3, failuresBefore - loginSlowdownAfter);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  return { succeeded: () => clearLoginFailures(ctx, lockKey), unchecked: () => ctx.counters.release(key) };
};

/** E_5 telling when the lock lifts: `retry_after` in the body and `Retry-After`, as the send limits do. */
export const lockedError = (secondsLeft: number) => {
  const minutes = Math.max(1, Math.ceil(secondsLeft / 60));
  return new RefusedForNow(
    'E_5',
    secondsLeft,
    `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
};

/**
 * Seconds the lock on `lockKey` still holds, 0 when the next guess would be checked (counts nothing).
 * A read, so only ever used to refuse early: the guess itself still reserves its attempt atomically.
 */
export const lockSecondsLeft = async (ctx: Context, lockKey: string): Promise<number> => {
  const key = loginKey(lockKey);
  if ((await ctx.counters.peek(key)) < ctx.config.loginLockAfter) return 0;
  return Math.max(1, await ctx.counters.ttl(key));
};

export const clearLoginFailures = (ctx: Context, lockKey: string) => ctx.counters.reset(loginKey(lockKey));
