/**
 * SAML single logout for the service provider: an identity provider's LogoutRequest (posted, or in a
 * redirect's query and signed over it) checked as assertions are and answered by a signed
 * LogoutResponse over HTTP-Redirect; EduPass's own LogoutRequest, and the identity provider's
 * LogoutResponse to it.
 */
import { verify, X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { FederationIdp } from './saml-metadata.ts';
import {
  ASSERTION_NS,
  CLOCK_SKEW_MS,
  hasComment,
  type LogoutNameId,
  logoutNameOf,
  PROTOCOL_NS,
  postedXml,
  RESPONSE_MAX_CHARS,
  refuse,
  type ServiceProvider,
  type SpKey,
  samlFor,
  strictText,
} from './saml-sp.ts';
import { children, only, parseXml } from './xml-read.ts';

export interface SamlLogout {
  /** HMAC input for the replay cache: the issuer and the request's ID. */
  id: string;
  /** The request's ID, which the LogoutResponse answers. */
  requestId: string;
  /** Unix ms after which the request may not be used. */
  notOnOrAfter: number;
  /** The person, as `SamlAssertion.logoutName`. */
  logoutName: string;
  /** The IdP sessions to end; none: every session of the person. */
  sessionIndexes: string[];
}

/** How long a LogoutRequest is good for when it says no NotOnOrAfter: from its IssueInstant. */
const LOGOUT_LIFETIME_MS = 5 * 60_000;

/** Reads the verified LogoutRequest: the issuer, one plain-text NameID, its sessions, its times. */
const readLogoutRequest = (xml: string, sp: ServiceProvider, idp: FederationIdp, now: number): SamlLogout => {
  const request = parseXml(xml, RESPONSE_MAX_CHARS);
  if (!request || request.namespaceURI !== PROTOCOL_NS || request.localName !== 'LogoutRequest') {
    return refuse('The SAMLRequest is not a LogoutRequest.');
  }
  if (hasComment(request)) refuse('The LogoutRequest carries XML comments.');
  const destination = request.getAttribute('Destination');
  if (destination && destination !== sp.sloUrl) refuse('The LogoutRequest is addressed to another endpoint.');
  if (strictText(only(request, ASSERTION_NS, 'Issuer'), 'issuer') !== idp.entityId) {
    refuse('The LogoutRequest was issued by another identity provider.');
  }
  const requestId = request.getAttribute('ID') || refuse('The LogoutRequest has no ID.');
  const issued = Date.parse(request.getAttribute('IssueInstant') ?? '');
  if (Number.isNaN(issued) || issued > now + CLOCK_SKEW_MS)
    refuse('The LogoutRequest has no IssueInstant, or one ahead.');
  const until = request.getAttribute('NotOnOrAfter');
  const notOnOrAfter = until ? Date.parse(until) : issued + LOGOUT_LIFETIME_MS;
  if (Number.isNaN(notOnOrAfter) || notOnOrAfter + CLOCK_SKEW_MS <= now) refuse('The LogoutRequest has expired.');
  const nameId = only(request, ASSERTION_NS, 'NameID') ?? refuse('The LogoutRequest needs exactly one NameID.');
  return {
    id: `${idp.entityId} ${requestId}`,
    requestId,
    notOnOrAfter,
    logoutName: logoutNameOf(nameId, strictText(nameId, 'NameID')),
    sessionIndexes: children(request, PROTOCOL_NS, 'SessionIndex').map((s) => strictText(s, 'SessionIndex')),
  };
};

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const REDIRECT_FIELDS = ['SAMLRequest', 'RelayState', 'SigAlg', 'Signature'] as const;

/**
 * A LogoutRequest sent over HTTP-Redirect (SAML bindings §3.4.4), from the query as received: its
 * fields (each at most once) and its XML, inflated to at most RESPONSE_MAX_CHARS. Unchecked.
 */
export const redirectLogoutRequest = (rawQuery: string) => {
  const raw = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    const at = pair.indexOf('=');
    const name = at < 0 ? pair : pair.slice(0, at);
    if (!(REDIRECT_FIELDS as readonly string[]).includes(name)) continue;
    if (raw.has(name)) return refuse(`The query names ${name} twice.`);
    raw.set(name, at < 0 ? '' : pair.slice(at + 1));
  }
  const field = (name: (typeof REDIRECT_FIELDS)[number]) => {
    const value = raw.get(name);
    try {
      return value === undefined ? undefined : decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return refuse(`The query's ${name} is not URL-encoded.`);
    }
  };
  const deflated = field('SAMLRequest') ?? refuse('The query has no SAMLRequest.');
  let xml: string;
  try {
    xml = inflateRawSync(Buffer.from(deflated, 'base64'), { maxOutputLength: RESPONSE_MAX_CHARS }).toString('utf8');
  } catch {
    return refuse('The SAMLRequest is not a DEFLATE-encoded message of a sensible size.');
  }
  // §3.4.4.1: the signature covers the fields as they were encoded in the query, in this order.
  const signed = ['SAMLRequest', 'RelayState', 'SigAlg']
    .filter((name) => raw.has(name))
    .map((name) => `${name}=${raw.get(name)}`)
    .join('&');
  return { xml, relayState: field('RelayState'), sigAlg: field('SigAlg'), signature: field('Signature'), signed };
};

/**
 * Checks a LogoutRequest sent over HTTP-Redirect: signed RSA-SHA256 by a key of the identity
 * provider's metadata (an unsigned one is refused: node-saml's own redirect check accepts it), then
 * read strictly as a posted one is.
 */
export const verifyRedirectLogoutRequest = (
  sp: ServiceProvider,
  idp: FederationIdp,
  request: ReturnType<typeof redirectLogoutRequest>,
  now: number,
): SamlLogout => {
  if (request.signature === undefined || request.sigAlg === undefined) refuse('The LogoutRequest is not signed.');
  if (request.sigAlg !== RSA_SHA256) refuse(`The LogoutRequest is signed with ${request.sigAlg}, not RSA-SHA256.`);
  const signature = Buffer.from(request.signature ?? '', 'base64');
  const verifiedBy = (der: string) => {
    try {
      const key = new X509Certificate(Buffer.from(der, 'base64')).publicKey;
      return verify('sha256', Buffer.from(request.signed), key, signature);
    } catch {
      // A certificate or key node:crypto cannot read verifies nothing.
      return false;
    }
  };
  const verified = idp.signingCerts.some(verifiedBy);
  if (!verified) refuse("The LogoutRequest's signature does not verify with the identity provider's keys.");
  return readLogoutRequest(request.xml, sp, idp, now);
};

/**
 * Checks a POSTed LogoutRequest (base64, HTTP-POST binding) from `idp`: signed by a key of its
 * metadata (node-saml, as for assertions, which refuses an unsigned one), then read strictly from the
 * verified document; AssertionRefused says why it is not accepted.
 */
export const verifyLogoutRequest = async (
  sp: ServiceProvider,
  idp: FederationIdp,
  samlRequest: string,
  now: number,
): Promise<SamlLogout> => {
  const logout = readLogoutRequest(postedXml(samlRequest), sp, idp, now);
  try {
    await samlFor(sp, idp).validatePostRequestAsync({ SAMLRequest: samlRequest });
  } catch (error) {
    return refuse(error instanceof Error ? error.message : 'The LogoutRequest was refused.');
  }
  return logout;
};

/** Where the browser takes the signed LogoutResponse (HTTP-Redirect) answering `logout`; undefined when the IdP has no such service. */
export const logoutResponseUrl = async (
  sp: ServiceProvider,
  idp: FederationIdp,
  key: SpKey,
  logout: SamlLogout,
  responseId: string,
  relayState: string | undefined,
): Promise<string | undefined> => {
  if (idp.sloUrl === undefined) return undefined;
  return samlFor(sp, idp, responseId, key).getLogoutResponseUrlAsync(
    // Only ID (InResponseTo) is read from the request here.
    { ID: logout.requestId, issuer: idp.entityId, nameID: '', nameIDFormat: '' },
    relayState ?? '',
    {},
    true,
  );
};

/**
 * Where the browser takes EduPass's own LogoutRequest (HTTP-Redirect, signed with `key`) naming the
 * person and session a sign-in was given; undefined when the IdP has no single logout service. Its
 * LogoutResponse comes back to the single logout service (`verifyLogoutResponse`).
 */
export const logoutRequestUrl = async (
  sp: ServiceProvider,
  idp: FederationIdp,
  key: SpKey,
  request: { id: string; nameId: LogoutNameId; sessionIndex: string },
): Promise<string | undefined> => {
  if (idp.sloUrl === undefined) return undefined;
  const { nameId } = request;
  return samlFor(sp, idp, request.id, key).getLogoutUrlAsync(
    {
      issuer: idp.entityId,
      nameID: nameId.value,
      nameIDFormat: nameId.format,
      ...(nameId.nameQualifier === undefined ? {} : { nameQualifier: nameId.nameQualifier }),
      ...(nameId.spNameQualifier === undefined ? {} : { spNameQualifier: nameId.spNameQualifier }),
      ...(request.sessionIndex === '' ? {} : { sessionIndex: request.sessionIndex }),
    },
    '',
    {},
  );
};

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/**
 * Checks the LogoutResponse an identity provider POSTs back after EduPass's LogoutRequest: signed by
 * a key of its metadata (node-saml), no comments, from it, to this single logout service, and
 * Success; AssertionRefused says why not. Answers the ID of the request it answers.
 */
export const verifyLogoutResponse = async (
  sp: ServiceProvider,
  idp: FederationIdp,
  samlResponse: string,
): Promise<string> => {
  const response = parseXml(postedXml(samlResponse), RESPONSE_MAX_CHARS);
  if (!response || response.namespaceURI !== PROTOCOL_NS || response.localName !== 'LogoutResponse') {
    return refuse('The SAMLResponse is not a LogoutResponse.');
  }
  if (hasComment(response)) refuse('The LogoutResponse carries XML comments.');
  const destination = response.getAttribute('Destination');
  if (destination && destination !== sp.sloUrl) refuse('The LogoutResponse is addressed to another endpoint.');
  if (strictText(only(response, ASSERTION_NS, 'Issuer'), 'issuer') !== idp.entityId) {
    refuse('The LogoutResponse was issued by another identity provider.');
  }
  const status = only(response, PROTOCOL_NS, 'Status');
  const code = status && only(status, PROTOCOL_NS, 'StatusCode');
  if (code?.getAttribute('Value') !== SUCCESS) refuse(`The identity provider answered ${code?.getAttribute('Value')}.`);
  try {
    await samlFor(sp, idp).validatePostResponseAsync({ SAMLResponse: samlResponse });
  } catch (error) {
    return refuse(error instanceof Error ? error.message : 'The LogoutResponse was refused.');
  }
  return response.getAttribute('InResponseTo') ?? '';
};
