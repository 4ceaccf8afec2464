/**
 * Guessing a client's secret (an application's at /oidc/token and the provider's introspection, a
 * product's at /introspect): each check from one address for one client holds an attempt of the
 * counters' window first (atomic increment, in Redis when configured, so parallel guesses cannot all
 * read "under the limit"); past the limit the secret is refused unchecked until the window ends. A
 * right secret gives the attempts back.
 */
import type { Context } from '../../context.ts';
import { countedAddress } from './counted-address.ts';

export const CLIENT_SECRET_GUESSES = { limit: 20, windowSeconds: 10 * 60 } as const;

/** Whether `matches` (the secret check) passes, counted against `clientId` from `ip`. */
export const limitedSecretCheck = async (
  ctx: Pick<Context, 'counters' | 'config'>,
  clientId: string,
  ip: string,
  matches: () => boolean,
): Promise<boolean> => {
  const key = `client-secret:${clientId}:${countedAddress(ctx, ip)}`;
  if ((await ctx.counters.hit(key, CLIENT_SECRET_GUESSES.windowSeconds)) > CLIENT_SECRET_GUESSES.limit) return false;
  if (!matches()) return false;
  await ctx.counters.reset(key);
  return true;
};
