/**
 * The captcha gate of every guarded action (code sends, password sign-in, new third-party accounts):
 * the policy of the product and scene decides, here on the server, whether the action needs a passed
 * challenge. A ticket from the captcha rule service is single-use and bound to the scene and identity
 * it was issued for; a `DEFAULT` ticket (handed out when no challenge was due) proves no human, so it
 * never satisfies a challenge. Refusals answer GCAP_1 and leave a security event.
 */
import type { Context } from '../../context.ts';
import { ApiError, fail, RefusedForNow } from '../../errors.ts';
import { type FoundAccount, findUserAndStandingByIdentity } from '../../store/account/users.ts';
import { assertHashRoom } from '../passwords/argon2.ts';
import { refuseWhileLocked } from '../passwords/guesses.ts';
import { securityEvent } from '../security/events.ts';
import { type CountWithPlace, loginKey, loginLockKey } from '../security/rate-limits.ts';
import { spendTicket } from '../security/tickets.ts';
import { policyFor } from './policy.ts';
import {
  type Account,
  accountLoginKey,
  assessAction,
  countsOf,
  type GateCounts,
  type GatedAction,
  gateCountKeys,
  giveBackCounted,
  type PendingLoginCount,
  recordLoginFailureFrom,
} from './risk.ts';
import { normalizeIdentity } from './tickets.ts';

export interface HumanCheck {
  /** The product asked for ('' or undefined: only `*` policies apply). */
  pid: string | undefined;
  scene: string;
  /** The phone, e-mail or username the action is for; '' when there is none. */
  identity: string;
  ip: string;
  ticket: string | undefined;
  action: GatedAction;
  /** login/security: a ticket (even a DEFAULT one) must come along whatever the policy. */
  ticketRequired?: boolean;
  /** A sign-in's account, when the caller looked it up already. */
  account?: Account | undefined;
  /** The risk policy's counts (risk.ts gateCountKeys), when the caller read them with its own. */
  counts?: GateCounts | undefined;
}

const refuse = (ctx: Context, check: HumanCheck, event: 'captcha_failed' | 'captcha_required', reason: string) => {
  securityEvent(ctx, {
    event,
    ...(check.identity === '' ? {} : { identity: check.identity }),
    ip: check.ip,
    reason: `${check.scene}: ${reason}`,
  });
  return fail('GCAP_1');
};

/** Spends a presented ticket: whether it proves a passed challenge; refuses one that is not valid here. */
const spendPresented = async (ctx: Context, check: HumanCheck, ticket: string): Promise<boolean> => {
  const facts = await spendTicket(ctx, 'captcha', ticket);
  if (!facts) return refuse(ctx, check, 'captcha_failed', 'ticket unknown, used or expired');
  const boundScene = facts.data.scene;
  if (facts.subject !== '' && facts.subject !== normalizeIdentity(check.identity)) {
    return refuse(ctx, check, 'captcha_failed', 'ticket issued for another identity');
  }
  if (typeof boundScene === 'string' && boundScene !== '' && boundScene !== check.scene) {
    return refuse(ctx, check, 'captcha_failed', `ticket issued for scene ${boundScene}`);
  }
  return facts.data.provider !== 'DEFAULT';
};

/** What a passed action took toward the risk policy's volumes, and a sign-in's count left to take. */
export interface HumanPassed {
  /** Counts taken (none under `never`, `always` or with a passed challenge), to give back if not tried. */
  counted: string[];
  /** A sign-in's count of the account's run, to take with the lock's place (guardPasswordLogin). */
  pending?: PendingLoginCount | undefined;
}

/** Passes the action or refuses it with GCAP_1. Call it before the action does anything. */
export const requireHuman = async (ctx: Context, check: HumanCheck): Promise<HumanPassed> => {
  const policy = await policyFor(ctx, check.pid ?? '', check.scene);
  if (check.ticket !== undefined && (await spendPresented(ctx, check, check.ticket))) return { counted: [] };
  if (policy === 'always') return refuse(ctx, check, 'captcha_required', 'policy always, no passed challenge');
  if (check.ticketRequired && check.ticket === undefined) {
    return refuse(ctx, check, 'captcha_required', 'this route takes a ticket');
  }
  if (policy === 'never') return { counted: [] };
  const verdict = await assessAction(
    ctx,
    { identity: check.identity, ip: check.ip, deviceId: '', scene: check.scene, account: check.account },
    check.action,
    check.counts,
  );
  if (verdict.risky) return refuse(ctx, check, 'captcha_required', `risk (${verdict.reasons.join(', ')})`);
  return { counted: verdict.counted, pending: verdict.pending };
};

export interface LoginGuard {
  pid: string;
  identity: string;
  ip: string;
  ticket: string | undefined;
  /** login/security: a ticket must come along whatever the policy. */
  ticketRequired: boolean;
}

/**
 * A password sign-in behind the gate (plain `login` and `login/security` alike): a full hash queue is
 * answered first (E_10: nothing read, nothing counted), then a locked account by its lock (E_5 with the
 * seconds left; no puzzle is worth solving to be refused); the account's run of unchallenged attempts
 * is counted in the same write as the lock's place and judged before the password is (`attempt` hands
 * `withPlace` to its password check); a wrong password counts toward the IP's risk, a right one ends
 * the account's run (`resetOnRight`, reset with the lock's own counts), and a sign-in refused unchecked (E_10:
 * the queue filled meanwhile, or the account's guesses under way held it too long) gives its count
 * back, so the client's retries through a burst never add up to a puzzle. A right password answered
 * with the second-step challenge ends the run too: the password passed, and an account with a second
 * factor must not meet the puzzle on every sign-in from the fourth in an hour.
 */
export const guardPasswordLogin = async <T>(
  ctx: Context,
  guard: LoginGuard,
  attempt: (
    found: FoundAccount | undefined,
    resetOnRight: readonly string[],
    withPlace: CountWithPlace | undefined,
  ) => Promise<T>,
): Promise<T> => {
  assertHashRoom();
  const who = { identity: guard.identity, ip: guard.ip };
  // The account is looked up once, with its standing: the lock, the risk count and the sign-in all go by it.
  const found = await findUserAndStandingByIdentity(ctx.db, guard.identity);
  const user = found?.user;
  const account = user ?? null;
  const lockKey = loginLockKey(user, guard.identity);
  // The lock's failures and the counts the risk policy decides on, read in one round trip.
  const { lockFailures, ...counts } = await countsOf(ctx, {
    lockFailures: loginKey(lockKey),
    ...gateCountKeys(ctx, { ...who, deviceId: '' }),
  });
  await refuseWhileLocked(ctx, lockKey, who, 'login_failed', lockFailures);
  const check: HumanCheck = { ...guard, scene: 'login', action: 'login', account, counts };
  const { counted, pending } = await requireHuman(ctx, check);
  // The account's run (its key needs no lookup: the account is known) ends when the password is right.
  const runKey = await accountLoginKey(ctx, guard.identity, account);
  // The account's run is counted with the lock's place, in one write, and judged before the password.
  const withPlace: CountWithPlace | undefined = pending && {
    key: runKey,
    windowSeconds: pending.windowSeconds,
    counted: false,
    decide: (count) => {
      if (count > pending.limit) refuse(ctx, check, 'captcha_required', 'risk (login-attempts)');
    },
  };
  try {
    return await attempt(found, [runKey], withPlace);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'AC3_2') await recordLoginFailureFrom(ctx, guard.ip);
    else if (error instanceof RefusedForNow && error.code === 'E_10') {
      await giveBackCounted(ctx, withPlace?.counted ? [...counted, withPlace.key] : counted);
    }
    throw error;
  }
};
