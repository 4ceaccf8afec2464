/** What both development providers do when a test identity is chosen: a code back to the site. */
import type { FastifyReply } from 'fastify';
import type { Config } from '../config/config.ts';
import { siteOrigins } from '../config/site-origins.ts';
import type { DevIdentityStore } from './identities.ts';
import { errorScreen } from './screen.ts';

/** 1 to 20 characters, none of them control characters. */
const validName = (name: string) => name.length >= 1 && [...name].length <= 20 && !/\p{Cc}/u.test(name);

export const sendHtml = (reply: FastifyReply, status: number, html: string) =>
  reply.code(status).type('text/html; charset=utf-8').send(html);

/**
 * The development provider sends codes to this site only (PUBLIC_URL's origin or a front end of
 * CORS_ORIGINS, as a real provider only to the app's registered domain): anything else would make it
 * an open redirect that hands out sign-in codes.
 */
export const isOwnSite = (config: Pick<Config, 'publicUrl' | 'corsOrigins'>, redirectUri: string | undefined) => {
  if (redirectUri === undefined || !URL.canParse(redirectUri)) return false;
  const target = new URL(redirectUri);
  return /^https?:$/.test(target.protocol) && siteOrigins(config).includes(target.origin);
};

export interface Confirmation {
  /** The configuration, read at the time of the request (tests learn their PUBLIC_URL once listening). */
  config: Pick<Config, 'publicUrl' | 'corsOrigins'>;
  label: string;
  appId: string;
  redirectUri: string;
  state: string;
  identity: string;
}

/** Issues a code for the chosen identity and sends the browser back with `code` and `state`. */
export const confirmIdentity = (store: DevIdentityStore, reply: FastifyReply, c: Confirmation, now: number) => {
  const name = c.identity.trim();
  if (!validName(name)) return sendHtml(reply, 400, errorScreen(c.label, 'A nickname has 1 to 20 characters.'));
  if (!isOwnSite(c.config, c.redirectUri)) {
    return sendHtml(reply, 400, errorScreen(c.label, 'redirect_uri 参数错误 · invalid redirect_uri'));
  }
  const target = new URL(c.redirectUri);
  store.remember(name);
  target.searchParams.set('code', store.issueCode(c.appId, name, target.toString(), now));
  target.searchParams.set('state', c.state);
  return reply.redirect(target.toString(), 302);
};

export interface StandInApp {
  label: string;
  appId: string;
  /** The query parameter that names the app (`appid`, `client_id`). */
  appIdParam: string;
  /** The provider's own words for an unknown app. */
  unknownApp: string;
}

/** The confirm step of a stand-in provider: the app named in the query must be `app`, then `confirmIdentity`. */
export const confirmFromQuery = (
  store: DevIdentityStore,
  reply: FastifyReply,
  query: unknown,
  app: StandInApp,
  config: Confirmation['config'],
  now: number,
) => {
  const q = queryOf(query);
  if (q[app.appIdParam] !== app.appId) return sendHtml(reply, 400, errorScreen(app.label, app.unknownApp));
  const { label, appId } = app;
  const step = { redirectUri: q.redirect_uri ?? '', state: q.state ?? '', identity: q.identity ?? '' };
  return confirmIdentity(store, reply, { config, label, appId, ...step }, now);
};

export const queryOf = (query: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  if (typeof query === 'object' && query !== null) {
    for (const [key, value] of Object.entries(query)) if (typeof value === 'string') out[key] = value;
  }
  return out;
};
