/**
 * A school's education platform over OAuth 2.0 or OpenID Connect: its settings (a preset's defaults,
 * then what the operator wrote; the client secret sealed), the start (the platform's authorization
 * address with PKCE, state and nonce) and the return (code exchanged, ID token verified, claims read).
 *
 * The PKCE verifier and the nonce are HMACs of the state under the server's key: the state is bound
 * to this browser by the state cookie, so the return derives the same two values, and someone who saw
 * the authorization address (which carries the state and the challenge) can derive neither.
 */
import { isRecord, OIDC_PRESET_NAMES, type OidcPresetName, routes } from '@edupass/protocol';
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
import { seal, unseal } from '../../../security/sealed-values.ts';
import type { AttributeMapping, UpstreamIdentity } from '../identity-mapping.ts';
import { DEFAULT_MAPPING } from '../identity-mapping.ts';
import type { SignOutThere } from '../sign-out.ts';
import { connectorAddress, signedOutPage, upstreamUrl } from '../upstream-url.ts';

export interface OidcPreset {
  protocol: 'oidc' | 'oauth2';
  scopes: string[];
  tokenAuth: OidcClient['tokenAuth'];
  /** The attribute mapping's defaults for this platform. */
  mapping: AttributeMapping;
  /** Whether the values were checked against the platform's published documentation. */
  checked: boolean;
}

/**
 * Presets: defaults for a kind of platform; every value can be overridden per connector. Only the
 * generic ones follow published standards (OpenID Connect Core's claims; REFEDS' `eduperson_affiliation`
 * claim name); the education platforms' presets are configuration shapes whose values are to be
 * checked with the platform when a school connects (docs/education.md), not vendor facts.
 */
export const OIDC_PRESETS: Record<OidcPresetName, OidcPreset> = {
  oidc: {
    protocol: 'oidc',
    scopes: ['openid', 'profile'],
    tokenAuth: 'client_secret_basic',
    mapping: { ...DEFAULT_MAPPING, subject: 'sub', role_attribute: 'eduperson_affiliation', name_attribute: 'name' },
    checked: true,
  },
  oauth2: {
    protocol: 'oauth2',
    scopes: [],
    tokenAuth: 'client_secret_post',
    mapping: { ...DEFAULT_MAPPING, subject: 'sub', name_attribute: 'name' },
    checked: true,
  },
  /** The national smart education platform (国家智慧教育公共服务平台): values to check with the platform. */
  smartedu: {
    protocol: 'oauth2',
    scopes: ['user_info'],
    tokenAuth: 'client_secret_post',
    mapping: {
      ...DEFAULT_MAPPING,
      subject: 'user_id',
      role_attribute: 'identity',
      teacher_values: ['teacher', '教师'],
      pupil_values: ['student', '学生'],
      class_attribute: 'class_name',
      name_attribute: 'real_name',
    },
    checked: false,
  },
  /** A provincial or municipal education cloud (省/市教育云) with OAuth2 sign-in: values to check with it. */
  'edu-cloud': {
    protocol: 'oauth2',
    scopes: ['basic'],
    tokenAuth: 'client_secret_post',
    mapping: {
      ...DEFAULT_MAPPING,
      subject: 'openid',
      role_attribute: 'userType',
      teacher_values: ['teacher', '教师', 'js'],
      pupil_values: ['student', '学生', 'xs'],
      class_attribute: 'className',
      name_attribute: 'name',
    },
    checked: false,
  },
};

export interface OidcSettings extends Omit<OidcClient, 'clientSecret'> {
  preset: string;
  /** Endpoints the operator named ('' = from discovery, OIDC only). */
  endpoints: Omit<OidcEndpoints, 'jwks' | 'issuer'>;
  /** The client secret sealed under the keyring's sealing key (named by the connector's code). */
  clientSecretSealed: string;
}

const secretName = (code: string) => `school-connector:${code}:client_secret`;

const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

const text = (value: unknown, key: string, max: number): string => {
  if (typeof value === 'string' && value.trim() !== '' && value.length <= max) return value.trim();
  throw invalidRequest(`settings.${key} must be given (at most ${max} characters).`);
};

const optionalUrl = (ctx: Context, value: unknown, key: string) =>
  value === undefined || value === '' ? '' : upstreamUrl(ctx, value, key);

export const presetOf = (settings: unknown): OidcPreset => {
  const name = isRecord(settings) && typeof settings.preset === 'string' ? settings.preset : 'oidc';
  // The named presets only: `constructor` or `__proto__` is no preset.
  if (!(OIDC_PRESET_NAMES as readonly string[]).includes(name)) {
    throw invalidRequest(`settings.preset must be one of ${OIDC_PRESET_NAMES.join(', ')}.`);
  }
  return OIDC_PRESETS[name as OidcPresetName];
};

/**
 * Reads an operator's settings (`stored` false: a new client secret in clear, sealed here) or the
 * stored ones (`stored` true: the sealed secret kept).
 */
export const oidcSettings = (ctx: Context, code: string, settings: unknown, stored: boolean): OidcSettings => {
  if (!isRecord(settings)) throw invalidRequest('settings must be an object.');
  const preset = presetOf(settings);
  const protocol = settings.protocol ?? preset.protocol;
  if (protocol !== 'oidc' && protocol !== 'oauth2')
    throw invalidRequest("settings.protocol must be 'oidc' or 'oauth2'.");
  const scopes = settings.scopes ?? (protocol === 'oidc' && preset.protocol !== 'oidc' ? ['openid'] : preset.scopes);
  if (!Array.isArray(scopes) || scopes.length > 16 || !scopes.every((s) => typeof s === 'string' && SCOPE.test(s))) {
    throw invalidRequest('settings.scopes must be a list of up to 16 scope names.');
  }
  if (protocol === 'oidc' && !scopes.includes('openid')) throw invalidRequest("settings.scopes must include 'openid'.");
  const tokenAuth = settings.token_auth ?? preset.tokenAuth;
  if (tokenAuth !== 'client_secret_basic' && tokenAuth !== 'client_secret_post') {
    throw invalidRequest("settings.token_auth must be 'client_secret_basic' or 'client_secret_post'.");
  }
  const endpoints = {
    authorization: optionalUrl(ctx, settings.authorization_endpoint, 'authorization_endpoint'),
    token: optionalUrl(ctx, settings.token_endpoint, 'token_endpoint'),
    userinfo: optionalUrl(ctx, settings.userinfo_endpoint, 'userinfo_endpoint'),
  };
  const issuer = protocol === 'oidc' ? upstreamUrl(ctx, settings.issuer, 'issuer') : '';
  if (
    protocol === 'oauth2' &&
    (endpoints.authorization === '' || endpoints.token === '' || endpoints.userinfo === '')
  ) {
    throw invalidRequest(
      'settings.authorization_endpoint, token_endpoint and userinfo_endpoint must be given for OAuth2.',
    );
  }
  const clientSecretSealed = stored
    ? text(settings.client_secret_sealed, 'client_secret_sealed', 4096)
    : seal(ctx.keys.sealing, text(settings.client_secret, 'client_secret', 512), secretName(code));
  return {
    preset: Object.entries(OIDC_PRESETS).find(([, p]) => p === preset)?.[0] ?? 'oidc',
    protocol,
    issuer,
    endpoints,
    clientId: text(settings.client_id, 'client_id', 256),
    clientSecretSealed,
    scopes: scopes as string[],
    tokenAuth,
  };
};

/** The address the platform sends the browser back to: registered with it as the redirect URI. */
export const oidcRedirectUri = (ctx: Context, code: string) =>
  connectorAddress(ctx, routes.finishOidcSignIn.path, code).toString();

/** Where an OpenID Connect platform posts its logout tokens: registered with it as the back-channel logout URI. */
const oidcLogoutUri = (ctx: Context, code: string) =>
  connectorAddress(ctx, routes.platformLogout.path, code).toString();

/**
 * Settings as stored (the sealed secret) and as shown (no secret; the redirect URI to register, and for
 * OpenID Connect the back-channel logout URI).
 */
export const oidcSettingsView = (ctx: Context, code: string, s: OidcSettings, withSecret: boolean) => ({
  preset: s.preset,
  protocol: s.protocol,
  issuer: s.issuer,
  authorization_endpoint: s.endpoints.authorization,
  token_endpoint: s.endpoints.token,
  userinfo_endpoint: s.endpoints.userinfo,
  client_id: s.clientId,
  scopes: s.scopes,
  token_auth: s.tokenAuth,
  ...(withSecret
    ? { client_secret_sealed: s.clientSecretSealed }
    : {
        redirect_uri: oidcRedirectUri(ctx, code),
        ...(s.protocol === 'oidc'
          ? { backchannel_logout_uri: oidcLogoutUri(ctx, code), post_logout_redirect_uri: signedOutPage(ctx) }
          : {}),
      }),
});

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
