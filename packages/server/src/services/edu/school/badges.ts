/**
 * Signing in with a login card's badge: the badge must be live (not revoked by a reprint or reset).
 * A live badge always signs in, whatever the address it comes from has tried: a whole district's
 * pupils reach the server through a handful of exit addresses, so no count of other tries may stand
 * between a valid card and its account. Wrong, revoked and made-up badges are counted per address
 * once the lookup has answered (nothing is held before it, so requests in flight count nothing);
 * past BADGE_FAILURES_PER_HOUR in an hour the address's further wrong badges are answered `E_5` with
 * the seconds left instead of `AC3_2`.
 *
 * No card is locked by a wrong badge: a badge is 192 random bits (cards.ts), so a made-up one names
 * no card, and a revoked one is a card already dead. The per-address count stops a client that keeps
 * sending badges; it does not ration guesses, which cannot succeed.
 */
import { HOUR_SECONDS } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { fail, RefusedForNow } from '../../../errors.ts';
import { findUserByLiveBadge } from '../../../store/edu/school/pupils.ts';
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
  const found = await findUserByLiveBadge(ctx.db, sha256(input.badge.trim()));
  // A badge is the school's way into an account it manages: once the pupil has a personal phone the
  // account is theirs (managed_by_school false), and no card the school printed opens it.
  if (found && !found.user.phone) {
    const { user, standing } = found;
    return signIn(ctx, user, 'badge', { ...request, pid: input.pid ?? request.pid }, [], standing);
  }
  const key = failuresKey(ctx, request.ip);
  // The count is atomic, so of a parallel burst exactly the limit are told AC3_2.
  if ((await ctx.counters.hit(key, HOUR_SECONDS)) > BADGE_FAILURES_PER_HOUR) {
    throw new RefusedForNow('E_5', await ctx.counters.ttl(key));
  }
  return fail('AC3_2');
};
