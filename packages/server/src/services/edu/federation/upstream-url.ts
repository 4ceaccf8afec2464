import type { Context } from '../../../context.ts';
import { invalidRequest } from '../../../errors.ts';

/**
 * An upstream system's address (CAS server, federation metadata): https, or http on a loopback host outside production (a local test
 * server). CAS ticket validation sends the ticket there and metadata carries keys, so plain http elsewhere
 * would leak or let a network attacker change them.
 */
export const upstreamUrl = (ctx: Context, value: unknown, key: string): string => {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw invalidRequest(`settings.${key} must be an absolute URL.`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && !ctx.config.production)) {
    throw invalidRequest(`settings.${key} must be https.`);
  }
  if (url.search || url.hash) throw invalidRequest(`settings.${key} must have no query or fragment.`);
  return url.toString().replace(/\/+$/, '');
};

/**
 * An address of EduPass's own that a school's system is given for the connector `code` (a route's
 * `path` with its `:code`): CAS's service address, a platform's redirect and back-channel logout URIs.
 */
export const connectorAddress = (ctx: Context, path: string, code: string): URL =>
  new URL(path.replace(':code', encodeURIComponent(code)), ctx.config.publicUrl);

/**
 * The web client's sign-in screen saying the person signed out: where a school's system sends the
 * browser back after signing out there too (an OpenID Connect platform registers it as a post-logout
 * redirect URI).
 */
export const signedOutPage = (ctx: Context): string => new URL('/?notice=signed-out', ctx.config.publicUrl).toString();

/** The sign-in screen saying the school's system did not confirm signing the person out there. */
export const schoolSignOutFailedPage = (ctx: Context): string =>
  new URL('/?notice=school-sign-out-failed', ctx.config.publicUrl).toString();
