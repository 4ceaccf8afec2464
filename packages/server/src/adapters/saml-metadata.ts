/**
 * A federation's metadata aggregate (CARSI, like eduGAIN: one `EntitiesDescriptor` holding every
 * member's `EntityDescriptor`, signed by the federation's key). Only what the signature covers is read:
 * the signature must be the root's own and cover the root, and the identity providers are read from
 * the signed content xml-crypto hands back, never from the fetched document (signature wrapping).
 */
import { SignedXml } from 'xml-crypto';
import { children, only, parseXml, textOf } from './xml-read.ts';

const MD_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS_NS = 'http://www.w3.org/2000/09/xmldsig#';
const MDUI_NS = 'urn:oasis:names:tc:SAML:metadata:ui';
const SAML2_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
/** CARSI's aggregate is a few megabytes; eduGAIN's is far larger and is not read through here. */
export const METADATA_MAX_CHARS = 32 * 1024 * 1024;

export interface FederationIdp {
  entityId: string;
  /** Display names by language (`zh`, `en`, …), from mdui:DisplayName or the organization. */
  names: Record<string, string>;
  /** Where the HTTP-Redirect AuthnRequest goes. */
  ssoUrl: string;
  /** Base64 DER certificates whose keys may sign this identity provider's assertions. */
  signingCerts: string[];
  /** Where a LogoutResponse goes (HTTP-Redirect single logout service), if it has one. */
  sloUrl?: string | undefined;
}

export interface FederationMetadata {
  idps: FederationIdp[];
  /** The aggregate's validUntil (unix ms), if it says one. */
  validUntil: number | undefined;
  /** The aggregate's cacheDuration (ms): how long a copy may be used before fetching again, if it says. */
  cacheDuration: number | undefined;
}

export class MetadataRefused extends Error {}

/** The signed content of the aggregate: the XML the federation's key signed, with the signature taken out. */
export const signedAggregate = (xml: string, federationCert: string): string => {
  const root = parseXml(xml, METADATA_MAX_CHARS);
  if (!root || root.namespaceURI !== MD_NS || root.localName !== 'EntitiesDescriptor') {
    throw new MetadataRefused('The metadata is not an EntitiesDescriptor.');
  }
  const signature = only(root, DS_NS, 'Signature');
  if (!signature) throw new MetadataRefused('The metadata carries no signature of its own.');
  // Only the configured federation key verifies: a key the document carries proves nothing (and
  // xml-crypto keeps HMAC switched off, so the public certificate cannot serve as an HMAC secret).
  const verifier = new SignedXml({ publicCert: federationCert, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  let valid = false;
  try {
    valid = verifier.checkSignature(xml);
  } catch {
    valid = false;
  }
  const references = verifier.getReferences();
  const rootId = root.getAttribute('ID');
  const coversRoot =
    references.length === 1 && (references[0]?.uri === '' || (!!rootId && references[0]?.uri === `#${rootId}`));
  const signed = verifier.getSignedReferences();
  if (!valid || !coversRoot || signed.length !== 1 || signed[0] === undefined) {
    throw new MetadataRefused("The metadata's signature is not the federation's or does not cover it.");
  }
  return signed[0];
};

const millis = (value: string | null) => {
  if (!value) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
};

const namesOf = (entity: Element, idp: Element): Record<string, string> => {
  const names: Record<string, string> = {};
  const add = (element: Element) => {
    const lang = element.getAttribute('xml:lang') || 'en';
    const text = textOf(element);
    if (text && !(lang in names)) names[lang] = text;
  };
  for (const extensions of children(idp, MD_NS, 'Extensions'))
    for (const ui of children(extensions, MDUI_NS, 'UIInfo')) children(ui, MDUI_NS, 'DisplayName').forEach(add);
  const organization = only(entity, MD_NS, 'Organization');
  if (organization) children(organization, MD_NS, 'OrganizationDisplayName').forEach(add);
  return names;
};

const signingCerts = (idp: Element) =>
  children(idp, MD_NS, 'KeyDescriptor')
    .filter((key) => (key.getAttribute('use') || 'signing') === 'signing')
    .flatMap((key) => children(key, DS_NS, 'KeyInfo'))
    .flatMap((info) => children(info, DS_NS, 'X509Data'))
    .flatMap((data) => children(data, DS_NS, 'X509Certificate'))
    .map((cert) => (textOf(cert) ?? '').replace(/\s+/g, ''))
    .filter((cert) => cert !== '');

const idpOf = (entity: Element): FederationIdp | undefined => {
  const entityId = entity.getAttribute('entityID');
  const idp = children(entity, MD_NS, 'IDPSSODescriptor').find((d) =>
    (d.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML2_PROTOCOL),
  );
  if (!entityId || !idp) return undefined;
  const sso = children(idp, MD_NS, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute('Location');
  const certs = signingCerts(idp);
  if (!ssoUrl || !/^https?:\/\//.test(ssoUrl) || certs.length === 0) return undefined;
  const slo = children(idp, MD_NS, 'SingleLogoutService').find((s) => s.getAttribute('Binding') === REDIRECT_BINDING);
  const sloUrl = slo?.getAttribute('ResponseLocation') || slo?.getAttribute('Location') || undefined;
  return {
    entityId,
    names: namesOf(entity, idp),
    ssoUrl,
    signingCerts: certs,
    sloUrl: sloUrl !== undefined && /^https?:\/\//.test(sloUrl) ? sloUrl : undefined,
  };
};

const entitiesOf = (group: Element): Element[] => [
  ...children(group, MD_NS, 'EntityDescriptor'),
  ...children(group, MD_NS, 'EntitiesDescriptor').flatMap(entitiesOf),
];

/** The identity providers of an aggregate's signed content (from signedAggregate). */
export const readAggregate = (signedXml: string): FederationMetadata => {
  const root = parseXml(signedXml, METADATA_MAX_CHARS);
  if (!root || root.namespaceURI !== MD_NS || root.localName !== 'EntitiesDescriptor') {
    throw new MetadataRefused('The signed metadata is not an EntitiesDescriptor.');
  }
  const idps = entitiesOf(root).flatMap((entity) => idpOf(entity) ?? []);
  return {
    idps,
    validUntil: millis(root.getAttribute('validUntil')),
    cacheDuration: durationMs(root.getAttribute('cacheDuration')),
  };
};

/** Hours, minutes and seconds of the xs:duration shapes federations use (`PT6H`, `P1D`, `PT30M`). */
const DURATION = /^P(?:(\d{1,4})D)?(?:T(?:(\d{1,5})H)?(?:(\d{1,6})M)?(?:(\d{1,7})(?:\.\d+)?S)?)?$/;

/** An xs:duration in ms; undefined when absent, zero or of a shape not read here (years, months). */
export const durationMs = (value: string | null): number | undefined => {
  const match = value ? DURATION.exec(value.trim()) : null;
  if (!match || value?.trim().endsWith('T')) return undefined;
  const [, d = '0', h = '0', m = '0', s = '0'] = match;
  const ms = ((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60_000 + Number(s) * 1000;
  return ms > 0 ? ms : undefined;
};
