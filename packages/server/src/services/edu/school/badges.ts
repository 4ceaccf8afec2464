/**
 * Signing in with a login card's badge: the badge must be live (not revoked by a reprint or reset).
 * Failed badges are counted per address: past BADGE_FAILURES_PER_HOUR in an hour the address is
 * refused (`E_5` with the seconds left) before any badge is looked up. Only failures count, so a
 * school's tablets behind one address sign in a whole school's pupils by card.
 */
import { HOUR_SECONDS } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { fail, RefusedForNow } from '../../../errors.ts';
import { findUserById } from '../../../store/account/users.ts';
import { findLiveBadge } from '../../../store/edu/school/pupils.ts';
import { requireProduct } from '../../platform/products.ts';
import { countedAddress } from '../../security/counted-address.ts';
import { sha256 } from '../../security/hashing.ts';
import { type SignedIn, type SignInRequest, signIn } from '../../sign-in/session-answer.ts';

/** Wrong, revoked or made-up badges one address may try in an hour. */
export const BADGE_FAILURES_PER_HOUR = 50;

const failuresKey = (ctx: Context, ip: string) => `badge-fail:ip:${countedAddress(ctx, ip)}`;

export const signInByBadge = async (
  ctx: Context,
  input: { badge: string; pid?: string | undefined },
  request: SignInRequest,
): Promise<SignedIn> => {
  if (input.pid !== undefined) await requireProduct(ctx, input.pid);
  // Every try holds one of the address's failures before the lookup (atomic, so parallel tries
  // cannot all pass a check made before any of them counted); a live badge gives it back.
  const key = failuresKey(ctx, request.ip);
  if ((await ctx.counters.hit(key, HOUR_SECONDS)) > BADGE_FAILURES_PER_HOUR) {
    throw new RefusedForNow('E_5', await ctx.counters.ttl(key));
  }
  const badge = await findLiveBadge(ctx.db, sha256(input.badge.trim()));
  const user = badge ? await findUserById(ctx.db, Number(badge.user_id)) : undefined;
  // A badge is the school's way into an account it manages: once the pupil has a personal phone the
  // account is theirs (managed_by_school false), and no card the school printed opens it.
  if (!user || user.phone) return fail('AC3_2');
  await ctx.counters.release(key);
  return signIn(ctx, user, 'badge', { ...request, pid: input.pid ?? request.pid });
};
