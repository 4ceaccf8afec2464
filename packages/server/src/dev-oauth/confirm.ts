/** What both development providers do when a test identity is chosen: a code back to the site. */
import type { FastifyReply } from 'fastify';
import type { DevIdentityStore } from './identities.ts';
import { errorScreen } from './screen.ts';

/** 1 to 20 characters, none of them control characters. */
const validName = (name: string) => name.length >= 1 && [...name].length <= 20 && !/\p{Cc}/u.test(name);

export const sendHtml = (reply: FastifyReply, status: number, html: string) =>
  reply.code(status).type('text/html; charset=utf-8').send(html);

export interface Confirmation {
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
  let target: URL;
  try {
    target = new URL(c.redirectUri);
  } catch {
    return sendHtml(reply, 400, errorScreen(c.label, 'redirect_uri 参数错误 · invalid redirect_uri'));
  }
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
