/**
 * What relying parties' libraries expect of the provider, kept apart from the provider's sign-in
 * wiring (provider.ts):
 * - ID tokens signed RS256 by default (OpenID Connect Discovery 1.0 requires it be offered) or ES256
 *   (an application's `id_token_signed_response_alg`), with keys of their own (signing-keys.ts);
 * - the claims of the requested scopes in the ID token too (libraries such as Auth.js and
 *   express-openid-connect build their session from it alone);
 * - PKCE required of public applications, and of confidential ones that ask for it (`require_pkce`;
 *   off by default, as Logto and Auth0 do, so server-side libraries without PKCE sign in);
 * - RFC 9068 JWT access tokens (`typ: at+jwt`, `client_id`, `jti`, `iat`, `aud`) for the API
 *   resources of OIDC_RESOURCES, signed with the access-token key.
 */
import type { Context } from '../context.ts';
import { ID_TOKEN_ALGS, SIGNING_ALG } from '../services/sessions/signing-keys.ts';

export const DEFAULT_ID_TOKEN_ALG = ID_TOKEN_ALGS[0];

interface ProviderClient {
  clientId: string;
  tokenEndpointAuthMethod?: string;
  [metadata: string]: unknown;
}

/** The scopes an access token for a resource server may carry (none of the OpenID ones). */
const RESOURCE_SCOPES = '';

export const relyingPartyConfiguration = (
  ctx: Context,
  accessTokenKid: string,
  InvalidTarget: new (description?: string) => Error,
) => ({
  clientDefaults: { id_token_signed_response_alg: DEFAULT_ID_TOKEN_ALG, grant_types: ['authorization_code'] },
  // What an application can be registered for (clients.ts): the code flow, and the ID token alone for
  // a confidential one on https. The provider's default also offered the hybrid `code id_token` and
  // `none`, which no application could use: discovery offered flows it would refuse.
  responseTypes: ['code', 'id_token'],
  enabledJWA: { idTokenSigningAlgValues: [...ID_TOKEN_ALGS] },
  conformIdTokenClaims: false,
  pkce: {
    required: (_kctx: unknown, client: ProviderClient) =>
      client.tokenEndpointAuthMethod === 'none' || client.require_pkce === true,
  },
  extraClientMetadataProperties: ['require_pkce'],
  resourceIndicators: {
    enabled: true,
    // Without `resource=`, the access token is for userinfo (opaque); with one, for that API.
    defaultResource: () => undefined,
    useGrantedResource: () => true,
    getResourceServerInfo: (_kctx: unknown, resource: string) => {
      if (!ctx.config.oidcResources.includes(resource)) {
        throw new InvalidTarget('The resource is not an API that accepts EduPass access tokens (OIDC_RESOURCES).');
      }
      return {
        scope: RESOURCE_SCOPES,
        audience: resource,
        accessTokenTTL: ctx.config.accessTokenTtlSeconds,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: SIGNING_ALG, kid: accessTokenKid } },
      };
    },
  },
});
