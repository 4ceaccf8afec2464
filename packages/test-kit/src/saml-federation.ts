/**
 * A SAML federation for tests, CARSI-shaped: a metadata aggregate (`EntitiesDescriptor`, several
 * institutions' identity providers, signed by the federation key with xml-crypto:
 * saml-federation-metadata.ts) served over HTTP, and one institution's identity provider built on
 * samlify (saml-idp.ts) that signs people in and out. `respond` builds responses on demand, with
 * fields a test may change, for the forged-response corpus.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { entityXml, FEDERATION_CERT, type Institution, key, signedAggregate } from './saml-federation-metadata.ts';
import {
  ATTRIBUTES,
  type IdpAnswer,
  type LogoutAnswer,
  type LogoutFields,
  type ResponseFields,
  type SamlPerson,
  samlIdentityProvider,
} from './saml-idp.ts';

export type { Institution, LogoutAnswer, LogoutFields, ResponseFields, SamlPerson };
export { ATTRIBUTES, FEDERATION_CERT, signedAggregate };

export interface SamlFederation {
  /** The aggregate's address. */
  metadataUrl: string;
  /** The institution that signs people in (samlify). */
  idp: Institution;
  /** Another member of the federation, listed in the aggregate. */
  other: Institution;
  /** The next person the identity provider signs in. */
  signInAs(person: SamlPerson): void;
  /**
   * What the metadata address answers: the signed aggregate, an error, a document signed by another
   * key, or an aggregate with a 2-minute or 1-second cacheDuration or a validUntil 2 minutes ahead.
   */
  serveMetadata(mode: 'good' | 'down' | 'wrong-key' | 'expired' | 'short-cache' | 'tiny-cache' | 'short-valid'): void;
  /** How often the metadata was fetched. */
  metadataFetches(): number;
  /** The last AuthnRequest the IdP received: its ID and the RelayState. */
  lastRequest(): { id: string; relayState: string } | undefined;
  /** A signed response (base64) to request `id` for `person`, with `fields` changed. */
  respond(id: string, person: SamlPerson, fields?: ResponseFields): Promise<string>;
  /** The NameID (format and value) and SessionIndex of the last response the IdP made. */
  lastSignIn(): { nameId: string; format: string; sessionIndex: string } | undefined;
  /**
   * A LogoutRequest (base64, for the HTTP-POST binding) from the IdP to EduPass, signed by samlify as
   * the IdP signs, for `nameId` and the sessions named; `fields` change it (forgeries, expiry).
   */
  logoutRequest(
    nameId: { value: string; format: string },
    fields?: LogoutFields,
  ): Promise<{ id: string; samlRequest: string }>;
  /**
   * The same LogoutRequest over HTTP-Redirect, signed over the query by samlify as the IdP signs: the
   * address of EduPass's single logout service the browser is sent to.
   */
  logoutRedirect(nameId: { value: string; format: string }, sessionIndexes?: string[]): Promise<URL>;
  /** What the IdP's single logout service made of the last LogoutResponse it was sent (samlify). */
  lastLogoutResponse(): LogoutAnswer | undefined;
  /**
   * The last LogoutRequest EduPass sent the IdP (HTTP-Redirect), as samlify read it: signature checked
   * by the key of EduPass's metadata, the NameID and SessionIndex it names. The IdP answers it with a
   * signed LogoutResponse posted back by the browser (`signOutPage`'s form).
   */
  lastSignOut(): { verified: boolean; nameId?: string; sessionIndex?: string; error?: string } | undefined;
  /**
   * A LogoutResponse (base64, HTTP-POST) as the IdP answers a request `inResponseTo`: signed by it, or by
   * another institution's key.
   */
  logoutResponse(inResponseTo: string, signer?: 'idp' | 'other-idp'): Promise<string>;
  close(): Promise<void>;
}

/** Starts the federation; `edupassUrl` is where EduPass's SP metadata is read from (lazily). */
export const startSamlFederation = async (edupassUrl: () => string): Promise<SamlFederation> => {
  let mode: 'good' | 'down' | 'wrong-key' | 'expired' | 'short-cache' | 'tiny-cache' | 'short-valid' = 'good';
  let fetches = 0;
  const server = createServer((request, response) => {
    void handle(request.url ?? '/').then(
      ({ status, type, body }) => response.writeHead(status, { 'content-type': type }).end(body),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp: Institution = {
    entityId: `${base}/idp/shibboleth`,
    names: { zh: '北方示范大学', en: 'Northern Model University' },
  };
  const other: Institution = {
    entityId: `${base}/other/shibboleth`,
    names: { zh: '南方理工学院', en: 'Southern Institute of Technology' },
  };
  const provider = samlIdentityProvider(base, idp, edupassUrl);

  const handle = async (path: string): Promise<IdpAnswer> => {
    const url = new URL(path, base);
    if (url.pathname === '/metadata') {
      fetches += 1;
      if (mode === 'down') return { status: 503, type: 'text/plain', body: 'down for maintenance' };
      const entities = [
        entityXml(idp.entityId, idp.names, `${base}/idp/sso`, key('idp.cert'), `${base}/idp/slo`),
        entityXml(other.entityId, other.names, `${base}/other/sso`, key('other-idp.cert')),
      ];
      const lifetime = mode === 'expired' ? -60_000 : mode === 'short-valid' ? 120_000 : 7 * 86_400_000;
      const validUntil = new Date(Date.now() + lifetime);
      const cacheDuration = mode === 'short-cache' ? 'PT2M' : mode === 'tiny-cache' ? 'PT1S' : undefined;
      return {
        status: 200,
        type: 'application/samlmetadata+xml',
        body: signedAggregate(entities, mode === 'wrong-key' ? 'other-idp' : 'federation', validUntil, cacheDuration),
      };
    }
    return provider.serve(url) ?? { status: 404, type: 'text/plain', body: 'not found' };
  };

  return {
    metadataUrl: `${base}/metadata`,
    idp,
    other,
    serveMetadata: (next) => {
      mode = next;
    },
    metadataFetches: () => fetches,
    ...provider.api,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
