/**
 * Which EduPass session a provider session stands on (services/identity/application-sessions.ts
 * keeps the links). Signing in to an application rides on the EduPass session of the web client:
 * when that ends (sign-out, password change, block), the provider asks for a sign-in again and the
 * applications' grants and tokens of that session are revoked; signing out through an application
 * (RP-initiated logout) ends it too.
 */
import type { Context } from '../context.ts';
import { linkLive, linkOf, saveLink } from '../services/identity/application-sessions.ts';
import { destroyModel } from '../services/identity/provider-data.ts';
import { endSessionByKey } from '../services/sessions/tokens.ts';

export type { Link } from '../services/identity/application-sessions.ts';

export const linkSession = saveLink;

/** Whether the linked EduPass session is live and still the account the provider session names. */
export const linkedSessionLive = async (ctx: Context, providerSessionUid: string, accountId: string) => {
  const link = await linkOf(ctx, providerSessionUid);
  return link !== undefined && String(link.userId) === accountId && (await linkLive(ctx, link));
};

/** Ends the EduPass session a provider session stood on (RP-initiated logout). */
export const endLinkedSession = async (ctx: Context, providerSessionUid: string) => {
  const link = await linkOf(ctx, providerSessionUid);
  if (link === undefined) return;
  await endSessionByKey(ctx, link.sessionKey, link.userId, 'oidc_logout');
  await destroyModel(ctx.db, 'SessionLink', providerSessionUid);
};
