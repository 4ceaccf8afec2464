/**
 * Signing in at a school's education platform over OAuth 2.0 or OpenID Connect: the start (the
 * platform's authorization address with PKCE, state and nonce), the return (code exchanged, ID token
 * verified, claims read), signing out there, and its logout tokens read.
 *
 * The PKCE verifier and the nonce are HMACs of the state under the server's key: the state is bound
 * to this browser by the state cookie, so the return derives the same two values, and someone who saw
 * the authorization address (which carries the state and the challenge) can derive neither.
 */
import {
  authorizationUrl,
  claimsAsAttributes,
  claimText,
  discover,
  endSessionUrl,
  exchangeCode,
  type OidcClient,
  type OidcEndpoints,
  type PlatformLogout,
  ProviderUnreachableError,
  UpstreamRefused,
  verifyLogoutToken,
} from '../../../../adapters/oidc-client.ts';
import type { Context } from '../../../../context.ts';
import { fail, invalidRequest, RetryLater } from '../../../../errors.ts';
import { hmac } from '../../../security/hashing.ts';
import { unseal } from '../../../security/sealed-values.ts';
import type { UpstreamIdentity } from '../identity-mapping.ts';
import type { SignOutThere } from '../sign-out.ts';
import { type OidcSettings, oidcRedirectUri, secretName } from './settings.ts';

const UPSTREAM_TIMEOUT_MS = 10_000;

/** How the platform's refusal is answered: a sign-in's `AC3_27`, or a logout token's `E_1` naming why. */
type Refusal = (error: UpstreamRefused) => never;
const signInRefused: Refusal = () => fail('AC3_27', 'The school system did not accept this sign-in. Sign in again.');
const logoutRefused: Refusal = (error) => {
  throw invalidRequest(error.message);
};

/** Runs an upstream step: unreachable → retry later; refused → `refusal`, logged with the reason. */
const upstream = async <T>(
  ctx: Context,
  code: string,
  step: () => Promise<T>,
  refusal: Refusal = signInRefused,
): Promise<T> => {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ProviderUnreachableError) {
      ctx.logger.warn({ connector: code, err: error.message }, 'school platform unreachable');
      throw new RetryLater(30, "The school's sign-in system did not answer. Try again later.");
    }
    if (error instanceof UpstreamRefused) {
      ctx.logger.warn({ connector: code, err: error.message }, 'school platform refused');
      return refusal(error);
    }
    throw error;
  }
};

const endpointsOf = async (
  ctx: Context,
  code: string,
  s: OidcSettings,
  refusal: Refusal = signInRefused,
): Promise<OidcEndpoints> => {
  if (s.protocol === 'oauth2') return { ...s.endpoints, jwks: '', issuer: '' };
  const found = await upstream(ctx, code, () => discover(s.issuer, UPSTREAM_TIMEOUT_MS, ctx.now()), refusal);
  return {
    authorization: s.endpoints.authorization || found.authorization,
    token: s.endpoints.token || found.token,
    userinfo: s.endpoints.userinfo || found.userinfo,
    jwks: found.jwks,
    issuer: found.issuer,
    endSession: found.endSession,
  };
};

/**
 * When a connector is added or its settings change: an OpenID Connect issuer's discovery document is
 * read now (and kept for the first sign-ins), so a mistyped issuer or a platform that is not an
 * OpenID Connect provider shows to the operator at once, as `E_1` naming what is wrong.
 */
export const checkOidcIssuer = async (ctx: Context, s: OidcSettings): Promise<void> => {
  if (s.protocol !== 'oidc') return;
  try {
    await discover(s.issuer, UPSTREAM_TIMEOUT_MS, ctx.now());
  } catch (error) {
    if (error instanceof UpstreamRefused || error instanceof ProviderUnreachableError) {
      throw invalidRequest(`settings.issuer: ${error.message}`);
    }
    throw error;
  }
};

const derived = (ctx: Context, connectorId: number, state: string) => ({
  codeVerifier: hmac(ctx.keys.codes, `oidc-pkce:${connectorId}:${state}`),
  nonce: hmac(ctx.keys.codes, `oidc-nonce:${connectorId}:${state}`),
});

interface OidcConnectorRef {
  id: number;
  code: string;
  oidc: OidcSettings;
  forceSignIn: boolean;
}

const clientOf = (ctx: Context, c: OidcConnectorRef): OidcClient => {
  const secret = unseal(ctx.keys.sealing, c.oidc.clientSecretSealed, secretName(c.code));
  if (secret === undefined) {
    ctx.logger.error({ connector: c.code }, 'school platform client secret does not open: set it again');
    throw new RetryLater(60, "The school's sign-in system is not available. Try again later.");
  }
  return { ...c.oidc, clientSecret: secret };
};

/**
 * The platform's authorization address for a sign-in started with `state`. The secret is opened here
 * too, though the address does not carry it: a secret that no longer opens stops the sign-in before
 * the person signs in at the platform for nothing.
 */
export const startOidcSignIn = async (ctx: Context, c: OidcConnectorRef, state: string): Promise<string> => {
  const endpoints = await endpointsOf(ctx, c.code, c.oidc);
  return authorizationUrl(clientOf(ctx, c), endpoints, {
    redirectUri: oidcRedirectUri(ctx, c.code),
    state,
    ...derived(ctx, c.id, state),
    freshSignIn: c.forceSignIn,
  });
};

/** Who signed in at the platform, and (OpenID Connect) in which of its sessions, as its logout tokens name them. */
export interface PlatformSignIn {
  identity: UpstreamIdentity;
  /**
   * The ID token's `sub` and `sid` (each when it has one), and the ID token itself, which signing out
   * there names; none for a plain OAuth2 platform.
   */
  upstream: { subject?: string | undefined; session?: string | undefined; signOut?: SignOutThere | undefined };
}

/** The identity the platform's code proves (state already checked against this browser), or AC3_27. */
export const finishOidcSignIn = async (
  ctx: Context,
  c: OidcConnectorRef,
  returned: { state: string; code: string; startedAt: number },
): Promise<PlatformSignIn> => {
  const endpoints = await endpointsOf(ctx, c.code, c.oidc);
  const client = clientOf(ctx, c);
  const { claims, idToken } = await upstream(ctx, c.code, () =>
    exchangeCode(
      client,
      endpoints,
      {
        code: returned.code,
        redirectUri: oidcRedirectUri(ctx, c.code),
        ...derived(ctx, c.id, returned.state),
        authSince: c.forceSignIn ? Math.floor(returned.startedAt / 1000) : undefined,
      },
      UPSTREAM_TIMEOUT_MS,
    ),
  );
  const attributes = claimsAsAttributes(claims);
  return {
    identity: { user: attributes.sub?.[0] ?? '', attributes },
    upstream:
      c.oidc.protocol === 'oidc'
        ? {
            subject: claimText(claims.sub),
            session: claimText(claims.sid),
            signOut: idToken === undefined ? undefined : { kind: 'oidc', idToken },
          }
        : {},
  };
};

/**
 * Where the browser signs out at the platform after signing out here (RP-Initiated Logout 1.0), coming
 * back to `back`, which the platform must have registered as a post-logout redirect URI; undefined
 * when the platform has no end-session endpoint.
 */
export const platformSignOutUrl = async (
  ctx: Context,
  c: OidcConnectorRef,
  idToken: string,
  back: string,
): Promise<string | undefined> => {
  const { endSession } = await endpointsOf(ctx, c.code, c.oidc);
  if (!endSession) return undefined;
  return endSessionUrl(c.oidc, endSession, { idToken, postLogoutRedirectUri: back });
};

/**
 * A logout token the platform posted, verified (Back-Channel Logout 1.0 §2.6): `E_1` naming what is
 * wrong, logged; a platform whose keys are out of reach is asked to retry (503). Plain OAuth2 platforms
 * have no logout tokens.
 */
export const readLogoutToken = async (ctx: Context, c: OidcConnectorRef, token: string): Promise<PlatformLogout> => {
  if (c.oidc.protocol !== 'oidc')
    throw invalidRequest('This platform signs in over plain OAuth2: it has no logout tokens.');
  const endpoints = await endpointsOf(ctx, c.code, c.oidc, logoutRefused);
  return upstream(
    ctx,
    c.code,
    () => verifyLogoutToken(c.oidc.clientId, endpoints, token, UPSTREAM_TIMEOUT_MS),
    logoutRefused,
  );
};
