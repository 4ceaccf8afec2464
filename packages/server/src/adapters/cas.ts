/**
 * A CAS 2.0 / 3.0 client (apereo.github.io/cas/development/protocol/CAS-Protocol-Specification.html):
 * the login address, service ticket validation (`/serviceValidate`, or `/p3/serviceValidate` with
 * attributes) and reading a single-logout request. XML is read with a namespace-aware parser, never
 * matched with patterns: an element counts only in the CAS namespace and in its place.
 */
import { fetchText } from './provider-http.ts';
import { elementChildren, only, parseXml, textOf } from './xml-read.ts';

const CAS_NS = 'http://www.yale.edu/tp/cas';
const SAMLP_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
/** A validation answer is a few kilobytes; anything far larger is not one. */
const ANSWER_MAX_CHARS = 256 * 1024;

export type CasVersion = '2.0' | '3.0';

export interface CasServer {
  /** The CAS prefix, e.g. `https://cas.example.edu/cas` (no trailing slash needed). */
  serverUrl: string;
  version: CasVersion;
}

export type CasValidation =
  | { ok: true; user: string; attributes: Record<string, string[]> }
  | { ok: false; code: string; message: string };

const under = (server: CasServer, path: string) => `${server.serverUrl.replace(/\/+$/, '')}/${path}`;

/**
 * Where the browser signs in: `<prefix>/login?service=…`. `renew`: the person types the password even
 * with a CAS session open (the validation must then ask for `renew` too).
 */
export const casLoginUrl = (server: CasServer, service: string, renew: boolean): string => {
  const url = new URL(under(server, 'login'));
  url.searchParams.set('service', service);
  if (renew) url.searchParams.set('renew', 'true');
  return url.toString();
};

/**
 * Where the browser signs out at the CAS server and comes back to `back` (§2.3.1: `service`, from CAS
 * 3.0; 2.0 servers read `url`). A server that does not know `back` shows its own signed-out page.
 */
export const casLogoutUrl = (server: CasServer, back: string): string => {
  const url = new URL(under(server, 'logout'));
  url.searchParams.set(server.version === '3.0' ? 'service' : 'url', back);
  return url.toString();
};

/** Reads a `serviceResponse`: the one success with its user and attributes, or the failure's code. */
export const readServiceResponse = (text: string): CasValidation => {
  const root = parseXml(text, ANSWER_MAX_CHARS);
  const refused = (code: string, message: string): CasValidation => ({ ok: false, code, message });
  if (!root || root.namespaceURI !== CAS_NS || root.localName !== 'serviceResponse') {
    return refused('INVALID_RESPONSE', 'The CAS server did not answer with a serviceResponse.');
  }
  const failure = only(root, CAS_NS, 'authenticationFailure');
  if (failure) return refused(failure.getAttribute('code') || 'INVALID_TICKET', textOf(failure) ?? '');
  const success = only(root, CAS_NS, 'authenticationSuccess');
  const userElement = success && only(success, CAS_NS, 'user');
  const user = userElement && textOf(userElement);
  if (!success || elementChildren(root).length !== 1 || !user) {
    return refused('INVALID_RESPONSE', 'The serviceResponse holds no single authenticationSuccess with a user.');
  }
  const attributes: Record<string, string[]> = {};
  const block = only(success, CAS_NS, 'attributes');
  for (const element of block ? elementChildren(block) : []) {
    const value = element.namespaceURI === CAS_NS ? textOf(element) : undefined;
    if (value === undefined || !element.localName) continue;
    const values = attributes[element.localName] ?? [];
    values.push(value);
    attributes[element.localName] = values;
  }
  return { ok: true, user, attributes };
};

/**
 * Validates a service ticket for `service` (exactly the address given to login). Throws
 * ProviderUnreachableError when the server cannot be reached.
 */
export const validateServiceTicket = async (
  server: CasServer,
  request: { service: string; ticket: string; renew: boolean },
  timeoutMs: number,
): Promise<CasValidation> => {
  const url = new URL(under(server, server.version === '3.0' ? 'p3/serviceValidate' : 'serviceValidate'));
  url.searchParams.set('service', request.service);
  url.searchParams.set('ticket', request.ticket);
  // CAS §2.5.1: with `renew`, a ticket the server issued from its single sign-on session is refused.
  if (request.renew) url.searchParams.set('renew', 'true');
  const answer = await fetchText(url.toString(), { headers: { accept: 'application/xml' } }, timeoutMs);
  if (answer.status !== 200) {
    return { ok: false, code: 'INVALID_RESPONSE', message: `The CAS server answered HTTP ${answer.status}.` };
  }
  return readServiceResponse(answer.text);
};

/** The service ticket a CAS single-logout request (`logoutRequest`, SAML LogoutRequest) names. */
export const readLogoutRequest = (text: string): string | undefined => {
  const root = parseXml(text, ANSWER_MAX_CHARS);
  if (!root || root.namespaceURI !== SAMLP_NS || root.localName !== 'LogoutRequest') return undefined;
  const index = only(root, SAMLP_NS, 'SessionIndex');
  const ticket = index && textOf(index);
  return ticket || undefined;
};
