/**
 * Which EduPass session each of the provider's sessions stands on (a "session link", kept beside the
 * provider's models under the provider session's uid), and the end of applications' sign-ins with it.
 * When EduPass sessions end (however: services/sessions/ending.ts), every provider session of the
 * account whose EduPass session is no longer live loses its grants, and with them the applications'
 * authorization codes, access and refresh tokens; the provider session itself is removed.
 */
import type { Context } from '../../context.ts';
import { destroyModelByUid, findModel, findModelsOfAccount, revokeGrant } from '../../store/identity/oidc-models.ts';
import { destroyModel } from '../../store/identity/oidc-writes.ts';
import { findLiveSessionByKey } from '../../store/sessions/sessions.ts';
import { queueBackchannelLogouts } from './backchannel-logout.ts';
import { saveModel, writeHeldBefore } from './provider-writes.ts';

type StoreContext = Pick<Context, 'db' | 'now'>;

const MODEL = 'SessionLink';

export interface Link {
  sessionKey: string;
  userId: number;
}

/** What a provider session holds per application: its grant and the `sid` the application was told. */
export interface AppAuthorization {
  clientId: string;
  grantId: string;
  sid: string | undefined;
}

/** Held with the provider's other writes of the request, when there is one (provider-writes.ts). */
export const saveLink = (ctx: StoreContext, providerSessionUid: string, link: Link, ttlSeconds: number) =>
  saveModel(ctx.db, {
    model: MODEL,
    id: providerSessionUid,
    payload: JSON.stringify(link),
    grantId: null,
    uid: null,
    userCode: null,
    accountId: String(link.userId),
    clientId: null,
    expiresAt: ctx.now() + ttlSeconds * 1000,
  });

export const linkOf = async (ctx: StoreContext, providerSessionUid: string) => {
  await writeHeldBefore(ctx.db, MODEL, { column: 'id', value: providerSessionUid });
  const row = await findModel(ctx.db, MODEL, { column: 'id', value: providerSessionUid }, ctx.now());
  return row === undefined ? undefined : (JSON.parse(row.payload) as Link);
};

/** Whether the linked EduPass session is live, of a user who is not blocked. */
export const linkLive = async (ctx: StoreContext, link: Link) => {
  const user = await findLiveSessionByKey(ctx.db, link.sessionKey);
  return user !== undefined && user.id === link.userId && user.blocked_at === null && user.erase_at === null;
};

const authorizationsOf = (payload: string): AppAuthorization[] => {
  const session = JSON.parse(payload) as { authorizations?: Record<string, { grantId?: string; sid?: string }> };
  return Object.entries(session.authorizations ?? {}).flatMap(([clientId, { grantId, sid }]) =>
    typeof grantId === 'string' ? [{ clientId, grantId, sid }] : [],
  );
};

/**
 * Ends the provider session `providerSessionUid` (its link included) and revokes every grant it
 * holds; answers the applications' authorizations that ended, for their back-channel logout.
 */
export const endProviderSession = async (ctx: StoreContext, providerSessionUid: string) => {
  // The provider's own deletions of this request (its session, at a sign-out through it) first: what
  // it already ended is not ended, nor announced to the applications, a second time.
  await writeHeldBefore(ctx.db);
  const session = await findModel(ctx.db, 'Session', { column: 'uid', value: providerSessionUid }, ctx.now());
  const ended = session === undefined ? [] : authorizationsOf(session.payload);
  for (const { grantId } of ended) await revokeGrant(ctx.db, grantId);
  await destroyModelByUid(ctx.db, 'Session', providerSessionUid);
  await destroyModel(ctx.db, MODEL, providerSessionUid);
  return ended;
};

/**
 * After sessions of `userId` ended (in the same transaction): the provider sessions standing on
 * EduPass sessions that are no longer live end, with their applications' grants and tokens, and the
 * applications that listen are sent a back-channel logout. Answers the authorizations that ended.
 */
export const endApplicationSessions = async (ctx: StoreContext, userId: number) => {
  await writeHeldBefore(ctx.db);
  const ended: AppAuthorization[] = [];
  for (const row of await findModelsOfAccount(ctx.db, MODEL, String(userId), ctx.now())) {
    if (await linkLive(ctx, JSON.parse(row.payload) as Link)) continue;
    ended.push(...(await endProviderSession(ctx, row.id)));
  }
  await queueBackchannelLogouts(
    ctx,
    ended.map(({ clientId, sid }) => ({ clientId, sid, accountId: String(userId) })),
  );
  return ended;
};
