/**
 * Where the sign-in screens may send a user back after sign-in (the `redirect` parameter): the
 * site itself (PUBLIC_URL), its front ends (CORS_ORIGINS), and the origins of registered applications'
 * redirect URIs (named, with their logo, for the sign-in screen: the application `client_id` names,
 * else the one whose redirect URI the address falls under most closely, else none when several
 * applications share the origin alike). Anything else would make EduPass an
 * open redirector, a phishing aid, and is refused. A signed-in caller is handed the address only once
 * every agreement in effect is signed (E_15 otherwise: the web client shows the agreements gate first).
 */
import type { ReturnCheck } from '@edupass/protocol';
import { siteOrigins } from '../../config/site-origins.ts';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { listApplicationRows } from '../../store/identity/applications.ts';
import { requireAgreementsSigned } from '../account/agreements.ts';

const refused = () => invalidRequest('This address is not one EduPass may send you back to.');

/** How closely `url` falls under a registered redirect URI: its length when within it, else -1. */
const closeness = (url: URL, uri: string): number => {
  const registered = new URL(uri);
  if (registered.origin !== url.origin) return -1;
  const base = registered.pathname.replace(/[^/]*$/, '');
  return url.pathname.startsWith(base) ? base.length : 0;
};

const allowedReturn = async (ctx: Context, redirect: string, clientId: string | undefined): Promise<ReturnCheck> => {
  if (!URL.canParse(redirect)) throw refused();
  const url = new URL(redirect);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw refused();
  }
  const site = siteOrigins(ctx.config).includes(url.origin);
  if (site && clientId === undefined) return { redirect: url.href, app_name: '', app_logo_url: '' };
  const ranked = (await listApplicationRows(ctx.db))
    .map((app) => ({
      app,
      score: Math.max(-1, ...(JSON.parse(app.redirect_uris) as string[]).map((uri) => closeness(url, uri))),
    }))
    .filter(({ score }) => score >= 0)
    .sort((a, b) => b.score - a.score);
  if (ranked.length === 0 && !site) throw refused();
  const named =
    clientId === undefined
      ? ranked[0] !== undefined && ranked[0].score !== ranked[1]?.score
        ? ranked[0].app
        : undefined
      : ranked.find(({ app }) => app.client_id === clientId)?.app;
  // An application named that the address does not belong to is a lie about where the user goes.
  if (clientId !== undefined && !named) throw refused();
  return named
    ? { redirect: url.href, app_name: named.name, app_logo_url: named.logo_url }
    : { redirect: url.href, app_name: '', app_logo_url: '' };
};

export const checkReturnTarget = async (
  ctx: Context,
  redirect: string,
  userId: number | undefined,
  clientId?: string,
): Promise<ReturnCheck> => {
  const allowed = await allowedReturn(ctx, redirect, clientId);
  if (userId !== undefined) await requireAgreementsSigned(ctx, userId);
  return allowed;
};
