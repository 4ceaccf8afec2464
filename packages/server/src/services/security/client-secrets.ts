/**
 * Guessing a client's secret (an application's at /oidc/token and the provider's introspection, a
 * product's at /introspect): wrong secrets for one client from one address are counted once they are
 * known to be wrong; past the limit every secret, the right one too, is refused unchecked until the
 * window ends. A right secret is never counted, so no number of an application's requests in flight
 * at once is refused while its secret is right (a product's back end at peak sends dozens).
 *
 * Counting after the check lets a parallel burst have all its secrets checked before the first
 * failure is counted; that is safe because every secret checked here is the server's own random
 * secret of 256 bits (or an operator's INTROSPECTION_SECRETS, refused at start below 32 characters): the limit is
 * there to stop a client that keeps sending wrong secrets, not to ration guesses at a weak one.
 */
import type { Context } from '../../context.ts';
import { countedAddress } from './counted-address.ts';

export const CLIENT_SECRET_GUESSES = { limit: 20, windowSeconds: 10 * 60 } as const;

/** Whether `matches` (the secret check) passes, wrong answers counted against `clientId` from `ip`. */
export const limitedSecretCheck = async (
  ctx: Pick<Context, 'counters' | 'config'>,
  clientId: string,
  ip: string,
  matches: () => boolean,
): Promise<boolean> => {
  const key = `client-secret:${clientId}:${countedAddress(ctx, ip)}`;
  if ((await ctx.counters.peek(key)) >= CLIENT_SECRET_GUESSES.limit) return false;
  if (matches()) return true;
  await ctx.counters.hit(key, CLIENT_SECRET_GUESSES.windowSeconds);
  return false;
};
