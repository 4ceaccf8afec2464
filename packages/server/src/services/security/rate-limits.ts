/** Rate limits on code sends, shared by every server process through the counters. */
import { DAY_SECONDS, HOUR_SECONDS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { RefusedForNow } from '../../errors.ts';
import type { AlongsideHit } from '../../store/counters.ts';
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

/** The count of a lock's failures (`loginLockKey`), for reading with other counts in one round trip. */
export const loginKey = (lockKey: string) => `login-fail:${lockKey.toLowerCase()}`;

/** What failed logins are counted under: the account, whichever of its identities the guesses use. */
export const loginLockKey = (user: { id: number } | undefined, identity: string) =>
  user ? `user:${user.id}` : identity;

export const loginFailureCount = (ctx: Context, lockKey: string) => ctx.counters.peek(loginKey(lockKey));

/**
 * Checks of one lock's guesses under way now, in a window of TRYING_SECONDS: a process that dies while
 * checking leaves its places taken until the window closes (a check takes well under a second).
 */
const tryingKey = (lockKey: string) => `login-try:${lockKey.toLowerCase()}`;
const TRYING_SECONDS = 20;
/**
 * A guess waits for one under way to end, in steps from LOCK_WAIT_FIRST_MS doubling to
 * LOCK_WAIT_LONGEST_MS (a crowd of waiters does not flood the counters), at most LOCK_WAIT_MS in all;
 * then E_10 with LOCK_WAIT_MESSAGE (ask again).
 */
const LOCK_WAIT_FIRST_MS = 20;
const LOCK_WAIT_LONGEST_MS = 250;
const LOCK_WAIT_MS = 5_000;
export const LOCK_WAIT_MESSAGE = 'Many sign-ins to this account are being checked right now. Try again in a moment.';

/**
 * A guess being checked under a lock: `succeeded` clears the lock's failures (and the counts named in
 * `resetOnRight`, in the same round trip), `failed` counts one, `unchecked` counts nothing (the guess was
 * never checked: the server was too busy). Each gives the guess's place back.
 */
export interface LoginAttempt {
  succeeded(resetOnRight?: readonly string[]): Promise<void>;
  failed(): Promise<void>;
  unchecked(): Promise<void>;
}

/**
 * A count taken in the same write as a guess's first place (the captcha gate's count of the account's
 * run of unchallenged sign-ins, services/captcha/gate.ts): `counted` once it is hit, and `decide`
 * judges the count before the lock does; a refusal by it gives the place back.
 */
export interface CountWithPlace extends AlongsideHit {
  counted: boolean;
  decide(count: number): void;
}

const slowDown = async (ctx: Context, failures: number) => {
  const { loginSlowdownAfter, loginSlowdownMs } = ctx.config;
  if (failures < loginSlowdownAfter || loginSlowdownMs <= 0) return;
  const delay = loginSlowdownMs * 2 ** Math.min(3, failures - loginSlowdownAfter);
  await new Promise((resolve) => setTimeout(resolve, delay));
};

/**
 * Whether a waiting guess may try to take a place: one looks free ('locked' when the failures alone
 * fill the lock). Read without taking one, so waiters do not crowd each other out.
 */
const placeLooksFree = async (ctx: Context, failKey: string, tryKey: string) => {
  const [known = 0, trying = 0] = await ctx.counters.peekAll([failKey, tryKey]);
  if (known >= ctx.config.loginLockAfter) return 'locked';
  return known + trying < ctx.config.loginLockAfter;
};

/**
 * Takes a place for one guess before it is checked. The lock counts failures when they are known
 * (`failed`), never guesses in flight: a right answer consumes nothing, so no number of right answers
 * at once is ever refused. Past LOGIN_LOCK_AFTER failures the guess is refused with E_5 unchecked.
 * Parallel guesses cannot all read "no failures yet": a guess is checked only while the failures and
 * the guesses under way together stay within the limit (its place taken first, the failures read
 * after); the others wait for those under way to end, and after LOCK_WAIT_MS are answered E_10 to ask
 * again. After LOGIN_SLOWDOWN_AFTER failures each guess is slowed down (doubling, at most 8×).
 */
export const reserveLoginAttempt = async (
  ctx: Context,
  lockKey: string,
  withPlace?: CountWithPlace,
): Promise<LoginAttempt> => {
  const { loginLockAfter, loginLockSeconds } = ctx.config;
  const failKey = loginKey(lockKey);
  const tryKey = tryingKey(lockKey);
  const started = performance.now();
  const locked = async () => {
    ctx.metrics.loginLocks.inc();
    return lockedError(await ctx.counters.ttl(failKey));
  };
  for (let step = LOCK_WAIT_FIRST_MS, first = true; ; step = Math.min(2 * step, LOCK_WAIT_LONGEST_MS), first = false) {
    const looksFree = first || (await placeLooksFree(ctx, failKey, tryKey));
    if (looksFree === 'locked') throw await locked();
    if (looksFree) {
      const alongside = withPlace !== undefined && !withPlace.counted ? withPlace : undefined;
      const taken = await ctx.counters.hitThenPeek(tryKey, TRYING_SECONDS, failKey, alongside);
      const { count: trying, other: failures } = taken;
      if (alongside !== undefined) {
        alongside.counted = true;
        try {
          alongside.decide(Number(taken.alongside));
        } catch (error) {
          await ctx.counters.release(tryKey);
          throw error;
        }
      }
      if (failures >= loginLockAfter) {
        await ctx.counters.release(tryKey);
        throw await locked();
      }
      if (failures + trying <= loginLockAfter) {
        await slowDown(ctx, failures);
        return {
          succeeded: (resetOnRight = []) =>
            ctx.counters.releaseAndReset(tryKey, failures > 0 ? [failKey, ...resetOnRight] : resetOnRight),
          failed: async () => {
            await ctx.counters.hit(failKey, loginLockSeconds);
            await ctx.counters.release(tryKey);
          },
          unchecked: () => ctx.counters.release(tryKey),
        };
      }
      await ctx.counters.release(tryKey);
    }
    if (performance.now() - started >= LOCK_WAIT_MS) throw new RefusedForNow('E_10', 1, LOCK_WAIT_MESSAGE);
    await new Promise((resolve) => setTimeout(resolve, step * (0.5 + Math.random())));
  }
};

/**
 * Counts one try under a lock whatever its outcome (a class's join code, a guardian's link code: a
 * right code gives nothing back, so knowing one cannot reopen the way to guessing others): past
 * LOGIN_LOCK_AFTER tries in LOGIN_LOCK_SECONDS E_5 with the seconds left, slowed down after
 * LOGIN_SLOWDOWN_AFTER.
 */
export const countLockedTry = async (ctx: Context, lockKey: string): Promise<void> => {
  const key = loginKey(lockKey);
  const tried = await ctx.counters.hit(key, ctx.config.loginLockSeconds);
  if (tried > ctx.config.loginLockAfter) {
    ctx.metrics.loginLocks.inc();
    throw lockedError(await ctx.counters.ttl(key));
  }
  await slowDown(ctx, tried - 1);
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
 * Seconds the lock on `lockKey` still holds, 0 when the next guess would be checked (counts nothing);
 * `failures` when the caller read the lock's count already (`loginKey`). A read, so only ever used to
 * refuse early: the guess itself still reserves its attempt atomically.
 */
export const lockSecondsLeft = async (ctx: Context, lockKey: string, failures?: number): Promise<number> => {
  const key = loginKey(lockKey);
  if ((failures ?? (await ctx.counters.peek(key))) < ctx.config.loginLockAfter) return 0;
  return Math.max(1, await ctx.counters.ttl(key));
};

export const clearLoginFailures = (ctx: Context, lockKey: string) => ctx.counters.reset(loginKey(lockKey));
