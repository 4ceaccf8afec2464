/** What the signing-key calls answer: the console's key list, the public JWKS and token introspection. */
import { boolean, either, integer, list, nullable, object, oneOf, text } from './answer-schema.ts';

/** A key that signs access tokens; times in unix ms. `state` next: published, not signing yet; retiring: published until its last token expires. */
export const signingKeyAnswer = object({
  generation: integer(),
  kid: text(),
  alg: text(),
  state: oneOf('next', 'signing', 'retiring', 'expired'),
  created_at: integer(),
  signs_from: integer(),
  published_until: nullable(integer()),
});

/** `GET /.well-known/jwks.json`: the public keys (ES256) that verify access tokens. */
export const jwksAnswer = object({
  keys: list(object({ kty: text(), crv: text(), x: text(), y: text(), kid: text(), alg: text(), use: text() })),
});

/** `POST /introspect` (RFC 7662): `{ active: false }`, or the live token's claims. */
export const introspectionAnswer = either(
  object({ active: boolean() }),
  object({
    active: boolean(),
    token_type: text(),
    iss: text(),
    sub: text(),
    sid: text(),
    aud: text(),
    client_id: text(),
    scope: text(),
    iat: integer(),
    exp: integer(),
  }),
);
