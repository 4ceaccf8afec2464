/**
 * The provider's signing keys, signing with node:crypto. Given JWKs, oidc-provider signs through jose,
 * which in Node runs WebCrypto: a job handed to the thread pool and awaited, for an RS256 signature
 * about a third more CPU than node:crypto's one call (an ID token in every sign-in and refresh), for
 * an ES256 one (the JWT access tokens of resource servers) about double. oidc-provider's
 * `ExternalSigningKey` (its feature `externalSigningSupport`, meant for keys in an HSM) lets it hand the
 * signing input to the key: these keys sign it with node:crypto, ES256 in JOSE's form (es256.ts).
 *
 * Only RS256 and ES256 keys, which name their algorithm (so the provider never asks them for
 * another, PS256 say, with the same RSA key), sign this way; any other key stays a JWK, signed by jose.
 */
import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject, sign } from 'node:crypto';
import type { JWK } from 'jose';
import type { ExternalSigningKey } from 'oidc-provider';
import { joseFromDer } from '../services/sessions/es256.ts';

/** The algorithms node:crypto signs here, and how a JWS carries each signature. */
const SIGNATURE_FORM = new Map<string, (der: Buffer) => Buffer>([
  ['RS256', (signature) => signature],
  ['ES256', joseFromDer],
]);

/**
 * The provider's `jwks` with every RS256 and ES256 key signing through node:crypto: `Base` is
 * oidc-provider's `ExternalSigningKey` (loaded with the provider, oidc/load.ts).
 */
export const nodeSigningKeys = (Base: typeof ExternalSigningKey, jwks: { keys: JWK[] }) => {
  class NodeSigningKey extends Base {
    readonly #private: KeyObject;
    readonly #public: KeyObject;
    readonly #form: (der: Buffer) => Buffer;

    constructor(jwk: JWK & { kid: string; alg: string }, form: (der: Buffer) => Buffer) {
      super();
      this.#private = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
      this.#public = createPublicKey(this.#private);
      this.#form = form;
      this.kid = jwk.kid;
      this.alg = jwk.alg;
    }

    override keyObject(): KeyObject {
      return this.#public;
    }

    override sign(data: Buffer): Buffer {
      return this.#form(sign('sha256', data, this.#private));
    }
  }
  return {
    keys: jwks.keys.map((jwk) => {
      const form = jwk.alg === undefined ? undefined : SIGNATURE_FORM.get(jwk.alg);
      if (form === undefined || jwk.kid === undefined || jwk.alg === undefined) return jwk;
      return new NodeSigningKey({ ...jwk, kid: jwk.kid, alg: jwk.alg }, form);
    }),
  };
};
