/**
 * A test federation's metadata, CARSI-shaped: an aggregate (`EntitiesDescriptor`) of several
 * institutions' identity providers, signed by the federation key with xml-crypto.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignedXml } from 'xml-crypto';

/** A key or certificate (PEM) of saml-keys/: the federation's, the IdP's, another institution's. */
export const key = (name: string) => readFileSync(new URL(`./saml-keys/${name}.pem`, import.meta.url), 'utf8');
const derOf = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
export const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The federation's signing certificate, as an operator pastes it into the connector. */
export const FEDERATION_CERT = key('federation.cert');
export const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface Institution {
  entityId: string;
  names: { zh: string; en: string };
}

/** One institution's IdP entry: its names, signing certificate, sign-in and (if any) single logout service. */
export const entityXml = (
  entityId: string,
  names: Institution['names'],
  ssoUrl: string,
  certPem: string,
  sloUrl?: string,
) =>
  `<md:EntityDescriptor entityID="${xmlText(entityId)}">` +
  `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
  `<md:Extensions><mdui:UIInfo><mdui:DisplayName xml:lang="zh">${xmlText(names.zh)}</mdui:DisplayName>` +
  `<mdui:DisplayName xml:lang="en">${xmlText(names.en)}</mdui:DisplayName></mdui:UIInfo></md:Extensions>` +
  `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${derOf(certPem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
  (sloUrl ? `<md:SingleLogoutService Binding="${REDIRECT}" Location="${xmlText(sloUrl)}"/>` : '') +
  `<md:SingleSignOnService Binding="${REDIRECT}" Location="${xmlText(ssoUrl)}"/>` +
  `</md:IDPSSODescriptor></md:EntityDescriptor>`;

/** An aggregate of `entities`, signed (enveloped, exclusive c14n, RSA-SHA256) by `signer`'s key. */
export const signedAggregate = (
  entities: string[],
  signer: 'federation' | 'other-idp' = 'federation',
  validUntil?: Date,
  cacheDuration?: string,
) => {
  const id = `_agg${randomBytes(8).toString('hex')}`;
  const xml =
    `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" ` +
    `xmlns:mdui="urn:oasis:names:tc:SAML:metadata:ui" ID="${id}" Name="urn:mace:test:carsi"` +
    `${validUntil ? ` validUntil="${validUntil.toISOString()}"` : ''}${cacheDuration ? ` cacheDuration="${cacheDuration}"` : ''}>` +
    `${entities.join('')}</md:EntitiesDescriptor>`;
  const signer_ = new SignedXml({
    privateKey: key(`${signer}.key`),
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  signer_.addReference({
    xpath: "/*[local-name(.)='EntitiesDescriptor']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer_.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: "/*[local-name(.)='EntitiesDescriptor']", action: 'prepend' },
  });
  return signer_.getSignedXml();
};
