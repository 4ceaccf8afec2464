/**
 * Which EduPass session a provider session stands on. Signing in to an application rides on the
 * EduPass session of the web client: when that ends (sign-out, password change, block), the provider
 * asks for a sign-in again; signing out through an application (RP-initiated logout) ends it too.
 * Kept beside the provider's models, under the provider session's uid.
 */
import type { Context } from '../context.ts';
import { destroyModel, findLiveSessionByKey, findModel, upsertModel } from '../services/identity/provider-data.ts';
import { endSessionByKey } from '../services/sessions/tokens.ts';

const MODEL = 'SessionLink';

export interface Link {
  sessionKey: string;
  userId: number;
}

export const linkSession = (
  ctx: Pick<Context, 'db' | 'now'>,
  providerSessionUid: string,
  link: Link,
  ttlSeconds: number,
) =>
  upsertModel(ctx.db, {
    model: MODEL,
    id: providerSessionUid,
    payload: JSON.stringify(link),
    grantId: null,
    uid: null,
    userCode: null,
    expiresAt: ctx.now() + ttlSeconds * 1000,
  });

const linkOf = async (ctx: Pick<Context, 'db' | 'now'>, providerSessionUid: string) => {
  const row = await findModel(ctx.db, MODEL, { column: 'id', value: providerSessionUid }, ctx.now());
  return row === undefined ? undefined : (JSON.parse(row.payload) as Link);
};

/** Whether the linked EduPass session is live and still the account the provider session names. */
export const linkedSessionLive = async (ctx: Context, providerSessionUid: string, accountId: string) => {
  const link = await linkOf(ctx, providerSessionUid);
  if (link === undefined || String(link.userId) !== accountId) return false;
  const user = await findLiveSessionByKey(ctx.db, link.sessionKey);
  return user !== undefined && user.id === link.userId && user.blocked_at === null;
};

/** Ends the EduPass session a provider session stood on (RP-initiated logout). */
export const endLinkedSession = async (ctx: Context, providerSessionUid: string) => {
  const link = await linkOf(ctx, providerSessionUid);
  if (link === undefined) return;
  await endSessionByKey(ctx, link.sessionKey, link.userId, 'oidc_logout');
  await destroyModel(ctx.db, MODEL, providerSessionUid);
};
