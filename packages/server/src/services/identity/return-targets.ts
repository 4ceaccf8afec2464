/**
 * Where the sign-in screens may send a user back after sign-in (the `redirect` parameter): the
 * site itself (PUBLIC_URL), its front ends (CORS_ORIGINS), and the origins of registered applications'
 * redirect URIs (named, with their logo, for the sign-in screen). Anything else would make EduPass an
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

const allowedReturn = async (ctx: Context, redirect: string): Promise<ReturnCheck> => {
  if (!URL.canParse(redirect)) throw refused();
  const url = new URL(redirect);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw refused();
  }
  if (siteOrigins(ctx.config).includes(url.origin)) return { redirect: url.href, app_name: '', app_logo_url: '' };
  for (const app of await listApplicationRows(ctx.db)) {
    const origins = (JSON.parse(app.redirect_uris) as string[]).map((uri) => new URL(uri).origin);
    if (origins.includes(url.origin)) return { redirect: url.href, app_name: app.name, app_logo_url: app.logo_url };
  }
  throw refused();
};

export const checkReturnTarget = async (
  ctx: Context,
  redirect: string,
  userId: number | undefined,
): Promise<ReturnCheck> => {
  const allowed = await allowedReturn(ctx, redirect);
  if (userId !== undefined) await requireAgreementsSigned(ctx, userId);
  return allowed;
};
