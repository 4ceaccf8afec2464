/**
 * EduPass as a SAML 2.0 service provider (on @node-saml/node-saml): the AuthnRequest address
 * (HTTP-Redirect), the SP metadata, a POSTed response checked twice over, and single logout (an
 * identity provider's POSTed LogoutRequest checked the same way, answered by a signed LogoutResponse
 * over HTTP-Redirect). node-saml checks the signature with the identity provider's keys from the
 * federation metadata, the time conditions and the audience; then the document it verified — never
 * the posted one — is read here with a namespace-aware parser for what node-saml leaves to its
 * caller: the issuer, the bearer subject confirmation's recipient and request, the NameID as plain
 * text, and the attributes.
 */
import { verify, X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { FederationIdp } from './saml-metadata.ts';
import { children, elementChildren, only, parseXml, textOf } from './xml-read.ts';

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
/** A response with a few attributes is a few kilobytes. */
export const RESPONSE_MAX_CHARS = 256 * 1024;
const CLOCK_SKEW_MS = 60_000;

/** Well-known attribute names (eduPerson, SAML subject-id profile) and the names mappings use. */
const FRIENDLY: Record<string, string> = {
  'urn:oid:1.3.6.1.4.1.5923.1.1.1.10': 'eduPersonTargetedID',
  'urn:oasis:names:tc:SAML:attribute:pairwise-id': 'pairwise-id',
  'urn:oid:1.3.6.1.4.1.5923.1.1.1.1': 'eduPersonAffiliation',
  'urn:oid:1.3.6.1.4.1.5923.1.1.1.9': 'eduPersonScopedAffiliation',
  'urn:oid:2.16.840.1.113730.3.1.241': 'displayName',
};

export interface ServiceProvider {
  /** EduPass's entity ID in the federation; the audience assertions must name. */
  entityId: string;
  /** The assertion consumer service (HTTP-POST) the assertion's recipient must name. */
  acsUrl: string;
  /** The single logout service (HTTP-POST) a LogoutRequest's Destination must name. */
  sloUrl: string;
}

/** The service provider's signing key (PEM), published in its metadata; it signs LogoutResponses. */
export interface SpKey {
  certPem: string;
  privateKeyPem: string;
}

export interface SamlAssertion {
  /** HMAC input for the replay cache: the issuer and the assertion's ID. */
  id: string;
  /** The AuthnRequest this answers (the bearer confirmation's InResponseTo). */
  inResponseTo: string;
  /** Unix ms after which the assertion may not be used. */
  notOnOrAfter: number;
  /** A persistent NameID (opaque by definition), else ''. */
  nameId: string;
  /** The NameID as a LogoutRequest names it (`<Format> <value>`, any format), else ''. */
  logoutName: string;
  /** The AuthnStatement's SessionIndex (the IdP's session), else ''. */
  sessionIndex: string;
  /** When the person proved who they are (the AuthnStatement's AuthnInstant, unix ms), else NaN. */
  authnInstant: number;
  /** The NameID as EduPass's own LogoutRequest must repeat it, when the assertion has one. */
  logoutNameId: LogoutNameId | undefined;
  attributes: Record<string, string[]>;
}

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

/** A NameID with the qualifiers an identity provider matches it by (SAML core §2.2.2, §3.7.1). */
export interface LogoutNameId {
  value: string;
  format: string;
  nameQualifier?: string | undefined;
  spNameQualifier?: string | undefined;
}

export class AssertionRefused extends Error {}

const refuse = (why: string): never => {
  throw new AssertionRefused(why);
};

/** A posted (HTTP-POST) SAML message's XML. */
export const postedXml = (message: string) => Buffer.from(message, 'base64').toString('utf8');

const samlFor = (sp: ServiceProvider, idp: FederationIdp, requestId = '', signing?: SpKey, forceAuthn = false) =>
  new SAML({
    forceAuthn,
    ...(signing === undefined
      ? {}
      : { privateKey: signing.privateKeyPem, signatureAlgorithm: 'sha256', logoutUrl: idp.sloUrl }),
    idpCert: idp.signingCerts.map((der) => `-----BEGIN CERTIFICATE-----\n${der}\n-----END CERTIFICATE-----`),
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: idp.ssoUrl,
    idpIssuer: idp.entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // The request is taken once from the database by the caller (atomic on both databases).
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => requestId,
  });

/**
 * Where the browser takes the AuthnRequest (HTTP-Redirect binding) with `relayState`; `forceAuthn`:
 * the identity provider asks for the password even with a session of its own open.
 */
export const authnRequestUrl = (
  sp: ServiceProvider,
  idp: FederationIdp,
  request: { id: string; relayState: string; forceAuthn: boolean },
) =>
  samlFor(sp, idp, request.id, undefined, request.forceAuthn).getAuthorizeUrlAsync(request.relayState, undefined, {});

/**
 * The SP metadata a federation registers: entity ID, the POST ACS, signed assertions wanted, the
 * signing key, the single logout service (HTTP-POST and HTTP-Redirect). AuthnRequests stay unsigned
 * (node-saml marks them signed once a key is given): an identity provider that still holds metadata
 * without the key would refuse a signature it cannot check.
 */
export const serviceProviderMetadata = (sp: ServiceProvider, key: SpKey) =>
  new SAML({
    idpCert: 'unused',
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    logoutCallbackUrl: sp.sloUrl,
    privateKey: key.privateKeyPem,
    wantAssertionsSigned: true,
  })
    .generateServiceProviderMetadata(null, key.certPem)
    .replace('AuthnRequestsSigned="true"', 'AuthnRequestsSigned="false"')
    // node-saml lists the POST binding only; the same address takes HTTP-Redirect too.
    .replace(/<SingleLogoutService [^>]*\/>/, (post) => `${post}${post.replace(/HTTP-POST/, 'HTTP-Redirect')}`);

/** Any comment anywhere: IdPs send none, and a comment inside a NameID is an attack on readers. */
const hasComment = (node: Node): boolean => {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 8 || hasComment(child)) return true;
  }
  return false;
};

const strictText = (element: Element | undefined, what: string) =>
  (element && textOf(element)) || refuse(`The assertion's ${what} is missing or not plain text.`);

const attributesOf = (assertion: Element): Record<string, string[]> => {
  const attributes: Record<string, string[]> = {};
  for (const statement of children(assertion, ASSERTION_NS, 'AttributeStatement')) {
    for (const attribute of children(statement, ASSERTION_NS, 'Attribute')) {
      const name = attribute.getAttribute('Name') ?? '';
      const values = children(attribute, ASSERTION_NS, 'AttributeValue').flatMap((value) => {
        // eduPersonTargetedID's value is a NameID element.
        const nested = only(value, ASSERTION_NS, 'NameID');
        const text = nested ? textOf(nested) : textOf(value);
        return text === undefined ? refuse(`Attribute ${name} holds something other than text.`) : text ? [text] : [];
      });
      for (const key of new Set([name, FRIENDLY[name], attribute.getAttribute('FriendlyName')])) {
        if (key) attributes[key] = [...(attributes[key] ?? []), ...values];
      }
    }
  }
  return attributes;
};

/** How a NameID is named for logout: its format and value (a transient one too: logout names it as sent). */
const logoutNameOf = (nameId: Element, value: string) => `${nameId.getAttribute('Format') ?? ''} ${value}`;

/** Reads the verified assertion node-saml hands back; every check the library leaves to us. */
const readAssertion = (xml: string, sp: ServiceProvider, idp: FederationIdp): SamlAssertion => {
  const assertion = parseXml(xml, RESPONSE_MAX_CHARS);
  if (!assertion || assertion.namespaceURI !== ASSERTION_NS || assertion.localName !== 'Assertion') {
    return refuse('The signed part is not an assertion.');
  }
  if (strictText(only(assertion, ASSERTION_NS, 'Issuer'), 'issuer') !== idp.entityId) {
    refuse('The assertion was issued by another identity provider.');
  }
  const subject = only(assertion, ASSERTION_NS, 'Subject') ?? refuse('The assertion names no subject.');
  const bearer = children(subject, ASSERTION_NS, 'SubjectConfirmation')
    .filter((c) => c.getAttribute('Method') === BEARER)
    .flatMap((c) => children(c, ASSERTION_NS, 'SubjectConfirmationData'));
  const data = bearer.length === 1 ? bearer[0] : refuse('The assertion needs exactly one bearer confirmation.');
  if (data?.getAttribute('Recipient') !== sp.acsUrl) refuse('The assertion is meant for another recipient.');
  const inResponseTo = data?.getAttribute('InResponseTo') || refuse('The assertion answers no request.');
  const notOnOrAfter = Date.parse(data?.getAttribute('NotOnOrAfter') ?? '');
  if (Number.isNaN(notOnOrAfter)) refuse('The bearer confirmation has no NotOnOrAfter.');
  const nameIdElement = only(subject, ASSERTION_NS, 'NameID');
  const nameId = nameIdElement ? strictText(nameIdElement, 'NameID') : '';
  const persistent = nameIdElement?.getAttribute('Format') === PERSISTENT;
  const authn = children(assertion, ASSERTION_NS, 'AuthnStatement');
  return {
    id: `${idp.entityId} ${assertion.getAttribute('ID') || refuse('The assertion has no ID.')}`,
    inResponseTo,
    notOnOrAfter,
    nameId: persistent ? nameId : '',
    logoutName: nameIdElement ? logoutNameOf(nameIdElement, nameId) : '',
    sessionIndex: authn.length === 1 ? (authn[0]?.getAttribute('SessionIndex') ?? '') : '',
    authnInstant: authn.length === 1 ? Date.parse(authn[0]?.getAttribute('AuthnInstant') ?? '') : Number.NaN,
    logoutNameId: nameIdElement
      ? {
          value: nameId,
          format: nameIdElement.getAttribute('Format') ?? '',
          nameQualifier: nameIdElement.getAttribute('NameQualifier') || undefined,
          spNameQualifier: nameIdElement.getAttribute('SPNameQualifier') || undefined,
        }
      : undefined,
    attributes: attributesOf(assertion),
  };
};

/** The posted response's envelope: well-formed, no comments, addressed to this ACS if it says. */
const checkEnvelope = (xml: string, sp: ServiceProvider) => {
  const response = parseXml(xml, RESPONSE_MAX_CHARS);
  if (!response || response.namespaceURI !== PROTOCOL_NS || response.localName !== 'Response') {
    refuse('The SAMLResponse is not a SAML Response.');
  }
  if (response && hasComment(response)) refuse('The SAMLResponse carries XML comments.');
  const destination = response?.getAttribute('Destination');
  if (destination && destination !== sp.acsUrl) refuse('The response is addressed to another endpoint.');
  if (response && elementChildren(response).filter((e) => e.localName === 'Assertion').length > 1) {
    refuse('The response carries more than one assertion.');
  }
};

/** Checks a POSTed SAMLResponse (base64) from `idp`; AssertionRefused says why it is not accepted. */
export const verifyResponse = async (
  sp: ServiceProvider,
  idp: FederationIdp,
  samlResponse: string,
): Promise<SamlAssertion> => {
  const xml = postedXml(samlResponse);
  checkEnvelope(xml, sp);
  let verified: string;
  try {
    const { profile } = await samlFor(sp, idp).validatePostResponseAsync({ SAMLResponse: samlResponse });
    verified = profile?.getAssertionXml?.() ?? refuse('The response holds no assertion.');
  } catch (error) {
    if (error instanceof AssertionRefused) throw error;
    return refuse(error instanceof Error ? error.message : 'The response was refused.');
  }
  return readAssertion(verified, sp, idp);
};

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

/** The issuer a SAML message claims (unverified: it only says whose keys to check it with). */
export const claimedIssuer = (xml: string): string | undefined => {
  const root = parseXml(xml, RESPONSE_MAX_CHARS);
  const issuer = root && only(root, ASSERTION_NS, 'Issuer');
  return issuer ? textOf(issuer) : undefined;
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
