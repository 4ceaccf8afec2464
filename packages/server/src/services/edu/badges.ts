/** Signing in with a login card's badge: the badge must be live (not revoked by a reprint or reset). */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import { findLiveBadge } from '../../store/edu/pupils.ts';
import { requireProduct } from '../platform/products.ts';
import { sha256 } from '../security/hashing.ts';
import { type SignedIn, type SignInRequest, signIn } from '../sign-in/session-answer.ts';

export const signInByBadge = async (
  ctx: Context,
  input: { badge: string; pid?: string },
  request: SignInRequest,
): Promise<SignedIn> => {
  if (input.pid !== undefined) await requireProduct(ctx, input.pid);
  const badge = await findLiveBadge(ctx.db, sha256(input.badge.trim()));
  const user = badge ? await findUserById(ctx.db, Number(badge.user_id)) : undefined;
  if (!user) return fail('AC3_2');
  return signIn(ctx, user, 'badge', { ...request, pid: input.pid ?? request.pid });
};
