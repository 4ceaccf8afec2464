/**
 * A sign-in's SAML response, checked twice over: node-saml checks the signature with the identity
 * provider's keys from the federation metadata, the time conditions and the audience; then the
 * document it verified — never the posted one — is read here with a namespace-aware parser for what
 * node-saml leaves to its caller: the issuer, the bearer subject confirmation's recipient and request,
 * the NameID as plain text, and the attributes.
 */
import type { FederationIdp } from './saml-metadata.ts';
import {
  ASSERTION_NS,
  AssertionRefused,
  hasComment,
  type LogoutNameId,
  logoutNameOf,
  PROTOCOL_NS,
  postedXml,
  RESPONSE_MAX_CHARS,
  refuse,
  type ServiceProvider,
  samlFor,
  strictText,
} from './saml-sp.ts';
import { children, elementChildren, only, parseXml, textOf } from './xml-read.ts';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/** Well-known attribute names (eduPerson, SAML subject-id profile) and the names mappings use. */
const FRIENDLY: Record<string, string> = {
  'urn:oid:1.3.6.1.4.1.5923.1.1.1.10': 'eduPersonTargetedID',
  'urn:oasis:names:tc:SAML:attribute:pairwise-id': 'pairwise-id',
  'urn:oid:1.3.6.1.4.1.5923.1.1.1.1': 'eduPersonAffiliation',
  'urn:oid:1.3.6.1.4.1.5923.1.1.1.9': 'eduPersonScopedAffiliation',
  'urn:oid:2.16.840.1.113730.3.1.241': 'displayName',
};

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
