/**
 * EduPass as a SAML 2.0 service provider (on @node-saml/node-saml): the AuthnRequest address
 * (HTTP-Redirect), the SP metadata, and a POSTed response checked twice over. node-saml checks the
 * signature with the identity provider's keys from the federation metadata, the time conditions and
 * the audience; then the assertion it verified — never the posted document — is read here with a
 * namespace-aware parser for what node-saml leaves to its caller: the issuer, the bearer subject
 * confirmation's recipient and request, the NameID as plain text, and the attributes.
 */
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
  attributes: Record<string, string[]>;
}

export class AssertionRefused extends Error {}

const refuse = (why: string): never => {
  throw new AssertionRefused(why);
};

const samlFor = (sp: ServiceProvider, idp: FederationIdp, requestId = '') =>
  new SAML({
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

/** Where the browser takes the AuthnRequest (HTTP-Redirect binding) with `relayState`. */
export const authnRequestUrl = (sp: ServiceProvider, idp: FederationIdp, requestId: string, relayState: string) =>
  samlFor(sp, idp, requestId).getAuthorizeUrlAsync(relayState, undefined, {});

/** The SP metadata a federation registers: entity ID, the POST ACS, signed assertions wanted. */
export const serviceProviderMetadata = (sp: ServiceProvider) =>
  new SAML({
    idpCert: 'unused',
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    wantAssertionsSigned: true,
  }).generateServiceProviderMetadata(null, null);

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
  return {
    id: `${idp.entityId} ${assertion.getAttribute('ID') || refuse('The assertion has no ID.')}`,
    inResponseTo,
    notOnOrAfter,
    nameId: persistent ? nameId : '',
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
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
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
