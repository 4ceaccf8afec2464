/** What both development providers do when a test identity is chosen: a code back to the site. */
import type { FastifyReply } from 'fastify';
import type { DevIdentityStore } from './identities.ts';
import { errorScreen } from './screen.ts';

/** 1 to 20 characters, none of them control characters. */
const validName = (name: string) => name.length >= 1 && [...name].length <= 20 && !/\p{Cc}/u.test(name);

export const sendHtml = (reply: FastifyReply, status: number, html: string) =>
  reply.code(status).type('text/html; charset=utf-8').send(html);

/**
 * The development provider sends codes to this site only (PUBLIC_URL's origin): anything else would
 * make it an open redirect that hands out sign-in codes.
 */
export const isOwnSite = (publicUrl: string, redirectUri: string | undefined) => {
  if (redirectUri === undefined || !URL.canParse(redirectUri)) return false;
  const target = new URL(redirectUri);
  return /^https?:$/.test(target.protocol) && target.origin === new URL(publicUrl).origin;
};

export interface Confirmation {
  /** PUBLIC_URL, read at the time of the request (tests learn theirs once listening). */
  publicUrl: string;
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
  if (!isOwnSite(c.publicUrl, c.redirectUri)) {
    return sendHtml(reply, 400, errorScreen(c.label, 'redirect_uri 参数错误 · invalid redirect_uri'));
  }
  const target = new URL(c.redirectUri);
  store.remember(name);
  target.searchParams.set('code', store.issueCode(c.appId, name, target.toString(), now));
  target.searchParams.set('state', c.state);
  return reply.redirect(target.toString(), 302);
};

export const queryOf = (query: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  if (typeof query === 'object' && query !== null) {
    for (const [key, value] of Object.entries(query)) if (typeof value === 'string') out[key] = value;
  }
  return out;
};
