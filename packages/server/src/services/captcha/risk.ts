/**
 * The `risk` policy: when a caller must pass a challenge. A whole school often shares one NAT
 * address, so what one IP does counts only in large numbers; what one account, identity or device
 * does counts early. Every count lives in the shared counters, so all processes agree, and the counts
 * a gate decides on are taken atomically (a parallel burst cannot slip past a threshold).
 *
 * Signals, each against its CAPTCHA_RISK_* threshold (captcha-config.ts):
 * - failed captcha checks of the identity or device, and of the IP;
 * - wrong passwords from the IP;
 * - code sends from the IP refused because the phone or address is not registered (or already is):
 *   walking through numbers to learn which are registered;
 * - rule requests for the identity;
 * - scene `login`: password sign-ins of the account without a passed challenge since its last success
 *   (none while the account is locked: the lock is the answer);
 * - other scenes (code sends that can reach any number, new third-party accounts): such actions from
 *   the IP without a passed challenge. A login code only goes to a registered phone, so it is no
 *   pumping vector, and a busy school IP does not put a puzzle in front of every password sign-in;
 * - every code send: sends to the one phone or address without a passed challenge (SMS pumping and
 *   bombing aim at numbers; a pupil asks for a code or two).
 */
import type { Context } from '../../context.ts';
import { canonicalIdentity } from '../../email-address.ts';
import { findUserByIdentity } from '../../store/account/users.ts';
import { signInLockKey } from '../passwords/guesses.ts';
import { countedAddress } from '../security/counted-address.ts';
import { securityEvent } from '../security/events.ts';
import { identityRefusalKey, lockSecondsLeft } from '../security/rate-limits.ts';

/** An identity as a count's key: an e-mail in its one spelling (email-address.ts), any identity in lower case. */
const identityKey = (identity: string) => canonicalIdentity(identity).toLowerCase();

export interface Caller {
  identity: string;
  ip: string;
  deviceId: string;
}

const failureKeys = (ctx: Context, { identity, ip, deviceId }: Caller) => ({
  identity: identity === '' ? undefined : `captcha-fail:id:${identityKey(identity)}`,
  device: deviceId === '' ? undefined : `captcha-fail:dev:${deviceId}`,
  ip: `captcha-fail:ip:${countedAddress(ctx, ip)}`,
});

const ipLoginFailureKey = (ctx: Context, ip: string) => `captcha-risk:login-fail:ip:${countedAddress(ctx, ip)}`;
const ipVolumeKey = (ctx: Context, ip: string) => `captcha-risk:volume:ip:${countedAddress(ctx, ip)}`;
const ruleKey = (identity: string) => `captcha-rule:${identityKey(identity)}`;
const targetVolumeKey = (identity: string) => `captcha-risk:volume:to:${identityKey(identity)}`;

/** The account an identity names (by any of its phone, username, e-mail); null when it names none. */
export type Account = { id: number } | null;

/**
 * The count of the account's run of unchallenged sign-ins (a right password ends it): the account's
 * key when the identity names one, else the identity. `account` is the identity's account when the
 * caller looked it up already; undefined: looked up here.
 */
export const accountLoginKey = async (ctx: Context, identity: string, account?: Account) => {
  const user = account === undefined ? await findUserByIdentity(ctx.db, identity) : account;
  return `captcha-risk:login:${user ? `user:${user.id}` : `id:${identityKey(identity)}`}`;
};

/** A failed challenge or vendor check counts against the identity, device and IP behind it. */
export const recordCaptchaFailure = async (ctx: Context, caller: Caller, reason: string): Promise<void> => {
  const window = ctx.config.captcha.riskWindowSeconds;
  for (const key of Object.values(failureKeys(ctx, caller))) if (key !== undefined) await ctx.counters.hit(key, window);
  securityEvent(ctx, {
    event: 'captcha_failed',
    ...(caller.identity === '' ? {} : { identity: caller.identity }),
    ip: caller.ip,
    reason,
  });
};

/** A wrong password counts against the IP it came from (the account's own count is the sign-in's). */
export const recordLoginFailureFrom = (ctx: Context, ip: string) =>
  ctx.counters.hit(ipLoginFailureKey(ctx, ip), ctx.config.captcha.riskWindowSeconds);

/**
 * Gives back what an action counted (`RiskVerdict.counted`) when it turned out never to be tried: a
 * sign-in answered "busy, try again" before its password was checked is no attempt, and the client's
 * own retries must not add up to a puzzle.
 */
export const giveBackCounted = async (ctx: Context, counted: readonly string[]) => {
  for (const key of counted) await ctx.counters.release(key);
};

/** Counts a rule request for the identity; many in a short while is what scripted abuse looks like. */
export const countRuleRequest = (ctx: Context, identity: string) =>
  identity === '' ? Promise.resolve(0) : ctx.counters.hit(ruleKey(identity), ctx.config.captcha.riskWindowSeconds);

export interface RiskVerdict {
  risky: boolean;
  /** What tipped it, for logs and tests. */
  reasons: string[];
  /** The counts this action took (assessAction), each one hit. */
  counted: string[];
  /** A sign-in's count of the account's run, left to be taken with the sign-in lock's place (gate.ts). */
  pending?: PendingLoginCount;
}

/**
 * The account's run of unchallenged sign-ins (its key `accountLoginKey`), counted in the same write as
 * the sign-in lock's place (services/security/rate-limits.ts `CountWithPlace`): past `limit` the
 * sign-in meets the puzzle.
 */
export interface PendingLoginCount {
  windowSeconds: number;
  limit: number;
}

export interface RiskQuestion extends Caller {
  scene: string;
  /** A sign-in's account, when the caller looked it up already (accountLoginKey). */
  account?: Account | undefined;
}

/** Whether the scene's volume is counted per account (sign-in) or per IP (everything else). */
const perAccount = (scene: string) => scene === 'login';

/** Each key's count in its open window, read in one round trip; a key left undefined counts 0. */
export const countsOf = async <K extends string>(
  ctx: Context,
  keys: Record<K, string | undefined>,
): Promise<Record<K, number>> => {
  const named = (Object.entries(keys) as [K, string | undefined][]).filter(
    (entry): entry is [K, string] => entry[1] !== undefined,
  );
  const counts = await ctx.counters.peekAll(named.map(([, key]) => key));
  const result = Object.fromEntries(Object.keys(keys).map((name) => [name, 0])) as Record<K, number>;
  named.forEach(([name], i) => {
    result[name] = counts[i] ?? 0;
  });
  return result;
};

/** The counts behind the signals that only read: failed checks, wrong passwords and refused sends. */
const standingKeys = (ctx: Context, q: Caller) => ({
  ...failureKeys(ctx, q),
  ipLoginFailures: ipLoginFailureKey(ctx, q.ip),
  ipRefusals: identityRefusalKey(ctx, q.ip),
});

/** The signals that only read counts; shared by the rule service and the gates. */
const standingReasons = (
  ctx: Context,
  counts: Record<keyof ReturnType<typeof standingKeys>, number>,
  ruleRequests: number,
): string[] => {
  const c = ctx.config.captcha;
  const reasons: string[] = [];
  if (counts.identity >= c.riskFailures) reasons.push('identity-failures');
  if (counts.device >= c.riskFailures) reasons.push('device-failures');
  if (counts.ip >= c.riskIpFailures) reasons.push('ip-failures');
  if (counts.ipLoginFailures >= c.riskIpLoginFailures) reasons.push('ip-login-failures');
  if (counts.ipRefusals >= c.riskIpRefusals) reasons.push('ip-identity-refusals');
  if (ruleRequests > c.riskRuleRequests) reasons.push('rule-volume');
  return reasons;
};

/** Whether the account behind the identity has used up its unchallenged sign-ins (counts nothing). */
const accountRunOver = async (ctx: Context, identity: string) =>
  identity !== '' &&
  (await ctx.counters.peek(await accountLoginKey(ctx, identity))) >= ctx.config.captcha.riskLoginFailures;

const accountLocked = async (ctx: Context, identity: string) =>
  (await lockSecondsLeft(ctx, await signInLockKey(ctx, identity))) > 0;

/** The rule service's view: would the next action of this caller be challenged? Counts nothing. */
export const assessRisk = async (ctx: Context, q: RiskQuestion, ruleRequests: number): Promise<RiskVerdict> => {
  const c = ctx.config.captcha;
  const counts = await countsOf(ctx, {
    ...standingKeys(ctx, q),
    ipVolume: perAccount(q.scene) ? undefined : ipVolumeKey(ctx, q.ip),
    targetVolume: q.identity === '' ? undefined : targetVolumeKey(q.identity),
  });
  const reasons = standingReasons(ctx, counts, ruleRequests);
  if (perAccount(q.scene)) {
    // The guesses that locked an account ask no puzzle of its next sign-in: the lock answers it (gate.ts).
    if ((await accountRunOver(ctx, q.identity)) && !(await accountLocked(ctx, q.identity)))
      reasons.push('login-attempts');
  } else if (counts.ipVolume >= c.riskIpSends) reasons.push('ip-volume');
  if (counts.targetVolume >= c.riskPhoneSends) reasons.push('target-volume');
  return { risky: reasons.length > 0, reasons, counted: [] };
};

export type GatedAction = 'send' | 'login' | 'signup';

/** The counts the gate decides on (assessAction), for a caller to read with its own in one round trip. */
export const gateCountKeys = (ctx: Context, q: Caller) => ({
  ...standingKeys(ctx, q),
  ruleRequests: q.identity === '' ? undefined : ruleKey(q.identity),
});
export type GateCounts = Record<keyof ReturnType<typeof gateCountKeys>, number>;

/**
 * The gate's view, for an action arriving without a passed challenge: the same signals, and this
 * action counted (atomically) toward its volume, so of a parallel burst only the allowance passes.
 * A sign-in's count is left `pending`: the caller takes it with the sign-in lock's place, in one write,
 * and judges it then. `read`: the gateCountKeys counts, when the caller read them already.
 */
export const assessAction = async (
  ctx: Context,
  q: RiskQuestion,
  action: GatedAction,
  read?: GateCounts,
): Promise<RiskVerdict> => {
  const c = ctx.config.captcha;
  const counts = read ?? (await countsOf(ctx, gateCountKeys(ctx, q)));
  const reasons = standingReasons(ctx, counts, counts.ruleRequests);
  if (reasons.length > 0) return { risky: true, reasons, counted: [] };
  const window = c.riskWindowSeconds;
  const counted: string[] = [];
  const hit = (key: string) => {
    counted.push(key);
    return ctx.counters.hit(key, window);
  };
  if (action === 'login') {
    return { risky: false, reasons, counted, pending: { windowSeconds: window, limit: c.riskLoginFailures } };
  }
  if (!perAccount(q.scene) && (await hit(ipVolumeKey(ctx, q.ip))) > c.riskIpSends) {
    reasons.push('ip-volume');
  }
  // Every send counts toward its number. A login code goes only to the account's own phone, so that
  // count alone decides for it — not the password guesses: "sign in with a code" is the way out of a lock.
  if (action === 'send' && q.identity !== '') {
    if ((await hit(targetVolumeKey(q.identity))) > c.riskPhoneSends) reasons.push('target-volume');
  }
  return { risky: reasons.length > 0, reasons, counted };
};
