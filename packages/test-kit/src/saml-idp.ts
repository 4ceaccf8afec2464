/**
 * One institution's identity provider for tests, built on samlify — an IdP library this project did
 * not write — that parses the AuthnRequest (HTTP-Redirect) and answers with a signed response posted
 * back by the browser (HTTP-POST, an auto-submitting form), and speaks single logout both ways.
 * `respond` builds responses on demand, with fields a test may change, for the forged-response corpus.
 */
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';
import { type Institution, key, REDIRECT, xmlText } from './saml-federation-metadata.ts';

const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

export const ATTRIBUTES = {
  pairwiseId: 'urn:oasis:names:tc:SAML:attribute:pairwise-id',
  targetedId: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.10',
  affiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1',
  displayName: 'urn:oid:2.16.840.1.113730.3.1.241',
} as const;

export interface SamlPerson {
  /** A persistent NameID, or none. */
  nameId?: string;
  /** By attribute Name (URN); values as released. */
  attributes: Record<string, string[]>;
}

/** What a forged or unusual response changes. Times are ISO strings. */
export interface ResponseFields {
  audience?: string;
  recipient?: string;
  destination?: string;
  notOnOrAfter?: string;
  issuer?: string;
  /** Raw XML put inside the NameID (a comment, say). */
  nameIdXml?: string;
  /** `other`: signed with another institution's key; `response`: only the envelope is signed. */
  signing?: 'assertion' | 'response' | 'other';
  /** When the person proved who they are (the AuthnStatement's AuthnInstant); now unless given. */
  authnInstant?: string;
}

/** What a forged or unusual LogoutRequest changes. */
export interface LogoutFields {
  /** SessionIndex elements (none: every session of the person). */
  sessionIndexes?: string[];
  issuer?: string;
  destination?: string;
  notOnOrAfter?: string;
  issueInstant?: string;
  /** Raw XML put inside the NameID (a comment, say). */
  nameIdXml?: string;
  /** `other`: signed with another institution's key; `none`: not signed; `altered`: changed after signing. */
  signing?: 'idp' | 'other' | 'none' | 'altered';
}

/** The LogoutResponse the IdP received, as samlify read it (its signature checked against EduPass's metadata). */
export interface LogoutAnswer {
  verified: boolean;
  inResponseTo?: string;
  status?: string;
  error?: string;
}

samlify.setSchemaValidator({ validate: async () => 'skipped' });

/** A page the IdP answers with. */
export interface IdpAnswer {
  status: number;
  type: string;
  body: string;
}

/** The identity provider's state: where it serves, whom it signs in next, what it last saw. */
interface Idp {
  base: string;
  idp: Institution;
  edupassUrl: () => string;
  person: SamlPerson;
  spMetadata?: string;
  last?: { id: string; relayState: string };
  lastSignedIn?: { nameId: string; format: string; sessionIndex: string };
  lastLogout?: LogoutAnswer;
  lastSignOut?: { verified: boolean; nameId?: string; sessionIndex?: string; error?: string };
}

const idpEntity = (s: Idp, signer: 'idp' | 'other-idp') =>
  samlify.IdentityProvider({
    entityID: s.idp.entityId,
    privateKey: key(`${signer}.key`),
    signingCert: key(`${signer}.cert`),
    nameIDFormat: [PERSISTENT],
    singleSignOnService: [{ Binding: REDIRECT, Location: `${s.base}/idp/sso` }],
    singleLogoutService: [{ Binding: REDIRECT, Location: `${s.base}/idp/slo` }],
    wantAuthnRequestsSigned: false,
    wantLogoutRequestSigned: true,
    wantLogoutResponseSigned: true,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
const serviceProvider = async (s: Idp, signing: 'assertion' | 'response' | 'logout') => {
  s.spMetadata ??= await (await fetch(`${s.edupassUrl()}/edu/school-sign-in/saml/metadata`)).text();
  const metadata = s.spMetadata;
  if (signing === 'logout') {
    return samlify.ServiceProvider({
      metadata,
      wantLogoutRequestSigned: true,
      wantLogoutResponseSigned: true,
    });
  }
  return signing === 'assertion'
    ? samlify.ServiceProvider({ metadata })
    : samlify.ServiceProvider({
        metadata: metadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'),
        wantMessageSigned: true,
      });
};

const attributeStatement = (attributes: SamlPerson['attributes']) =>
  Object.keys(attributes).length === 0
    ? ''
    : `<saml:AttributeStatement>${Object.entries(attributes)
        .map(
          ([name, values]) =>
            `<saml:Attribute Name="${xmlText(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
              .map((value) =>
                name === ATTRIBUTES.targetedId
                  ? `<saml:AttributeValue><saml:NameID Format="${PERSISTENT}">${xmlText(value)}</saml:NameID></saml:AttributeValue>`
                  : `<saml:AttributeValue xsi:type="xs:string">${xmlText(value)}</saml:AttributeValue>`,
              )
              .join('')}</saml:Attribute>`,
        )
        .join('')}</saml:AttributeStatement>`;

const respond = async (s: Idp, id: string, who: SamlPerson, fields: ResponseFields = {}) => {
  const signing = fields.signing ?? 'assertion';
  const sp = await serviceProvider(s, signing === 'response' ? 'response' : 'assertion');
  const now = new Date();
  const later = fields.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000).toISOString();
  const acs = `${s.edupassUrl()}/edu/school-sign-in/saml/acs`;
  const spEntityId = `${s.edupassUrl()}/edu/school-sign-in/saml/metadata`;
  const entity = idpEntity(s, signing === 'other' ? 'other-idp' : 'idp');
  const answer = await entity.createLoginResponse(
    sp,
    { extract: { request: { id } } },
    'post',
    {},
    {
      customTagReplacement: (template: string) => {
        const responseId = `_r${randomBytes(10).toString('hex')}`;
        const values: Record<string, string> = {
          ID: responseId,
          AssertionID: `_a${randomBytes(10).toString('hex')}`,
          Destination: fields.destination ?? acs,
          Audience: fields.audience ?? spEntityId,
          SubjectRecipient: fields.recipient ?? acs,
          Issuer: fields.issuer ?? s.idp.entityId,
          IssueInstant: now.toISOString(),
          StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
          ConditionsNotBefore: new Date(now.getTime() - 60_000).toISOString(),
          ConditionsNotOnOrAfter: later,
          SubjectConfirmationDataNotOnOrAfter: later,
          // Without a persistent NameID, a transient one (new at every sign-in), as IdPs send.
          NameIDFormat: who.nameId === undefined ? TRANSIENT : PERSISTENT,
          InResponseTo: id,
        };
        const nameId = who.nameId ?? `_t${randomBytes(8).toString('hex')}`;
        s.lastSignedIn = { nameId, format: values.NameIDFormat ?? '', sessionIndex: responseId };
        // samlify escapes the values it fills in; the XML parts are put in as XML.
        const xmlParts = template
          .replace('{NameID}', fields.nameIdXml ?? xmlText(nameId))
          .replace(
            '{AuthnStatement}',
            `<saml:AuthnStatement AuthnInstant="${fields.authnInstant ?? now.toISOString()}" SessionIndex="${responseId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
          )
          .replace('{AttributeStatement}', attributeStatement(who.attributes));
        return { id: responseId, context: samlify.SamlLib.replaceTagsByValue(xmlParts, values) };
      },
    },
  );
  return answer.context;
};

const logoutRequest = async (s: Idp, nameId: { value: string; format: string }, fields: LogoutFields = {}) => {
  const sp = await serviceProvider(s, 'logout');
  const id = `_l${randomBytes(10).toString('hex')}`;
  const slo = `${s.edupassUrl()}/edu/school-sign-in/saml/slo`;
  const xml =
    '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
    `ID="${id}" Version="2.0" IssueInstant="${fields.issueInstant ?? new Date().toISOString()}" ` +
    `Destination="${xmlText(fields.destination ?? slo)}"${fields.notOnOrAfter ? ` NotOnOrAfter="${fields.notOnOrAfter}"` : ''}>` +
    `<saml:Issuer>${xmlText(fields.issuer ?? s.idp.entityId)}</saml:Issuer>` +
    `<saml:NameID Format="${xmlText(nameId.format)}">${fields.nameIdXml ?? xmlText(nameId.value)}</saml:NameID>` +
    (fields.sessionIndexes ?? [])
      .map((index) => `<samlp:SessionIndex>${xmlText(index)}</samlp:SessionIndex>`)
      .join('') +
    '</samlp:LogoutRequest>';
  if (fields.signing === 'none') return { id, samlRequest: Buffer.from(xml).toString('base64') };
  const made = idpEntity(s, fields.signing === 'other' ? 'other-idp' : 'idp').createLogoutRequest(
    sp,
    'post',
    { logoutNameID: nameId.value },
    { customTagReplacement: () => ({ id, context: xml }) },
  ) as { context: string };
  const signed = Buffer.from(made.context, 'base64').toString('utf8');
  // Altered after signing: another person named, the signature left as it was.
  const sent = fields.signing === 'altered' ? signed.replace(xmlText(nameId.value), 'someone-else') : signed;
  return { id, samlRequest: Buffer.from(sent).toString('base64') };
};

const logoutRedirect = async (s: Idp, nameId: { value: string; format: string }, sessionIndexes: string[] = []) => {
  const sp = await serviceProvider(s, 'logout');
  const id = `_l${randomBytes(10).toString('hex')}`;
  const slo = `${s.edupassUrl()}/edu/school-sign-in/saml/slo`;
  const xml =
    '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
    `ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${xmlText(slo)}">` +
    `<saml:Issuer>${xmlText(s.idp.entityId)}</saml:Issuer>` +
    `<saml:NameID Format="${xmlText(nameId.format)}">${xmlText(nameId.value)}</saml:NameID>` +
    sessionIndexes.map((index) => `<samlp:SessionIndex>${xmlText(index)}</samlp:SessionIndex>`).join('') +
    '</samlp:LogoutRequest>';
  const made = idpEntity(s, 'idp').createLogoutRequest(
    sp,
    'redirect',
    { logoutNameID: nameId.value },
    { relayState: 'idp-relay-9', customTagReplacement: () => ({ id, context: xml }) },
  ) as { context: string };
  return new URL(made.context);
};

/** The octets an HTTP-Redirect message's signature covers: the query's own encoded fields, in order. */
const signedOctets = (url: URL, message: 'SAMLRequest' | 'SAMLResponse') => {
  const raw = new Map(
    (url.search.slice(1) || '').split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const),
  );
  return [message, 'RelayState', 'SigAlg'].flatMap((name) => (raw.has(name) ? [raw.get(name)] : [])).join('&');
};

const logoutResponse = async (s: Idp, inResponseTo: string, signer: 'idp' | 'other-idp' = 'idp') => {
  const made = idpEntity(s, signer).createLogoutResponse(
    await serviceProvider(s, 'logout'),
    { extract: { request: { id: inResponseTo } } },
    'post',
  ) as { context: string };
  return made.context;
};

/**
 * EduPass's own LogoutRequest (HTTP-Redirect): checked by samlify, then answered Success by a page
 * whose form the browser posts to EduPass's single logout service.
 */
const receiveLogoutRequest = async (s: Idp, url: URL) => {
  let inResponseTo = '';
  try {
    const parsed = await idpEntity(s, 'idp').parseLogoutRequest(await serviceProvider(s, 'logout'), 'redirect', {
      query: Object.fromEntries(url.searchParams),
      octetString: signedOctets(url, 'SAMLRequest'),
    } as never);
    const extract = parsed.extract as { request?: { id?: string }; nameID?: string; sessionIndex?: string };
    inResponseTo = extract.request?.id ?? '';
    s.lastSignOut = { verified: true, nameId: extract.nameID, sessionIndex: extract.sessionIndex };
  } catch (error) {
    s.lastSignOut = { verified: false, error: String(error) };
    return { status: 400, type: 'text/plain', body: 'logout request refused' };
  }
  const slo = `${s.edupassUrl()}/edu/school-sign-in/saml/slo`;
  const body = `<!doctype html><html lang="en"><head><title>Signed out</title></head><body onload="document.forms[0].submit()"><main><form method="post" action="${xmlText(slo)}"><input type="hidden" name="SAMLResponse" value="${xmlText(await logoutResponse(s, inResponseTo))}"><noscript><button type="submit">Continue</button></noscript></form></main></body></html>`;
  return { status: 200, type: 'text/html; charset=utf-8', body };
};

/** The IdP's single logout service: the LogoutResponse (HTTP-Redirect), its signature checked by samlify. */
const receiveLogoutResponse = async (s: Idp, url: URL) => {
  const octetString = signedOctets(url, 'SAMLResponse');
  try {
    const parsed = await idpEntity(s, 'idp').parseLogoutResponse(await serviceProvider(s, 'logout'), 'redirect', {
      query: Object.fromEntries(url.searchParams),
      octetString,
    } as never);
    const extract = parsed.extract as { response?: { inResponseTo?: string } };
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLResponse') ?? '', 'base64')).toString('utf8');
    const status = /<samlp:StatusCode Value="([^"]+)"/.exec(xml)?.[1];
    s.lastLogout = { verified: true, inResponseTo: extract.response?.inResponseTo, status };
  } catch (error) {
    s.lastLogout = { verified: false, error: String(error) };
  }
  return { status: 200, type: 'text/plain', body: 'signed out' };
};

/** The IdP's sign-in service: the AuthnRequest read, then a page that posts the response to EduPass. */
const receiveLoginRequest = async (s: Idp, url: URL): Promise<IdpAnswer> => {
  const sp = await serviceProvider(s, 'assertion');
  const parsed = await idpEntity(s, 'idp').parseLoginRequest(sp, 'redirect', {
    query: Object.fromEntries(url.searchParams),
    octetString: '',
  } as never);
  const id = String((parsed.extract as { request?: { id?: string } }).request?.id ?? '');
  const relayState = url.searchParams.get('RelayState') ?? '';
  s.last = { id, relayState };
  const samlResponse = await respond(s, id, s.person);
  const acs = `${s.edupassUrl()}/edu/school-sign-in/saml/acs`;
  const body = `<!doctype html><html lang="en"><head><title>Signing in</title></head><body onload="document.forms[0].submit()"><main><form method="post" action="${xmlText(acs)}"><input type="hidden" name="SAMLResponse" value="${xmlText(samlResponse)}"><input type="hidden" name="RelayState" value="${xmlText(relayState)}"><noscript><button type="submit">Continue</button></noscript></form></main></body></html>`;
  return { status: 200, type: 'text/html; charset=utf-8', body };
};

/**
 * The identity provider `idp`, its services under `base`; `edupassUrl` is where EduPass's SP metadata
 * is read from (lazily).
 */
export const samlIdentityProvider = (base: string, idp: Institution, edupassUrl: () => string) => {
  const s: Idp = { base, idp, edupassUrl, person: { attributes: {} } };
  /** The IdP's own addresses (`/idp/sso`, `/idp/slo`); undefined for any other. */
  const serve = (url: URL): Promise<IdpAnswer> | undefined => {
    if (url.pathname === '/idp/sso') return receiveLoginRequest(s, url);
    if (url.pathname !== '/idp/slo') return undefined;
    return url.searchParams.has('SAMLRequest') ? receiveLogoutRequest(s, url) : receiveLogoutResponse(s, url);
  };
  /** What a test asks of the IdP (SamlFederation's members). */
  const api = {
    signInAs: (next: SamlPerson) => {
      s.person = next;
    },
    lastRequest: () => s.last,
    respond: (id: string, who: SamlPerson, fields?: ResponseFields) => respond(s, id, who, fields),
    lastSignIn: () => s.lastSignedIn,
    logoutRequest: (nameId: { value: string; format: string }, fields?: LogoutFields) =>
      logoutRequest(s, nameId, fields),
    lastLogoutResponse: () => s.lastLogout,
    lastSignOut: () => s.lastSignOut,
    logoutRedirect: (nameId: { value: string; format: string }, sessionIndexes?: string[]) =>
      logoutRedirect(s, nameId, sessionIndexes),
    logoutResponse: (inResponseTo: string, signer?: 'idp' | 'other-idp') => logoutResponse(s, inResponseTo, signer),
  };
  return { serve, api };
};
