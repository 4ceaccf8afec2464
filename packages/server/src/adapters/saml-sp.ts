/**
 * EduPass as a SAML 2.0 service provider (on @node-saml/node-saml), what its messages share: the
 * service provider and its key, node-saml set up for an identity provider of the federation, the
 * AuthnRequest address (HTTP-Redirect), the SP metadata, and the strict reading every message gets
 * (no comments, plain-text values, the issuer it claims). The response of a sign-in is
 * saml-response.ts's, single logout saml-logout.ts's.
 */
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { FederationIdp } from './saml-metadata.ts';
import { only, parseXml, textOf } from './xml-read.ts';

export const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
/** A response with a few attributes is a few kilobytes. */
export const RESPONSE_MAX_CHARS = 256 * 1024;
export const CLOCK_SKEW_MS = 60_000;

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

/** A NameID with the qualifiers an identity provider matches it by (SAML core §2.2.2, §3.7.1). */
export interface LogoutNameId {
  value: string;
  format: string;
  nameQualifier?: string | undefined;
  spNameQualifier?: string | undefined;
}

export class AssertionRefused extends Error {}

export const refuse = (why: string): never => {
  throw new AssertionRefused(why);
};

/** A posted (HTTP-POST) SAML message's XML. */
export const postedXml = (message: string) => Buffer.from(message, 'base64').toString('utf8');

export const samlFor = (sp: ServiceProvider, idp: FederationIdp, requestId = '', signing?: SpKey, forceAuthn = false) =>
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
export const hasComment = (node: Node): boolean => {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 8 || hasComment(child)) return true;
  }
  return false;
};

export const strictText = (element: Element | undefined, what: string) =>
  (element && textOf(element)) || refuse(`The assertion's ${what} is missing or not plain text.`);

/** How a NameID is named for logout: its format and value (a transient one too: logout names it as sent). */
export const logoutNameOf = (nameId: Element, value: string) => `${nameId.getAttribute('Format') ?? ''} ${value}`;

/** The issuer a SAML message claims (unverified: it only says whose keys to check it with). */
export const claimedIssuer = (xml: string): string | undefined => {
  const root = parseXml(xml, RESPONSE_MAX_CHARS);
  const issuer = root && only(root, ASSERTION_NS, 'Issuer');
  return issuer ? textOf(issuer) : undefined;
};
