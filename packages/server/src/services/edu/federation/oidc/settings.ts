/**
 * A school's education platform over OAuth 2.0 or OpenID Connect: its presets and settings (a
 * preset's defaults, then what the operator wrote; the client secret sealed), as stored and as shown.
 * The sign-in itself is sign-in.ts's.
 */
import { isRecord, OIDC_PRESET_ASKS, OIDC_PRESET_NAMES, type OidcPresetName, routes } from '@edupass/protocol';
import type { OidcClient, OidcEndpoints } from '../../../../adapters/oidc-client.ts';
import type { Context } from '../../../../context.ts';
import { invalidRequest } from '../../../../errors.ts';
import { seal } from '../../../security/sealed-values.ts';
import type { AttributeMapping } from '../identity-mapping.ts';
import { DEFAULT_MAPPING } from '../identity-mapping.ts';
import { connectorAddress, signedOutPage, upstreamUrl } from '../upstream-url.ts';

export interface OidcPreset {
  protocol: 'oidc' | 'oauth2';
  scopes: string[];
  tokenAuth: OidcClient['tokenAuth'];
  /** The attribute mapping's defaults for this platform. */
  mapping: AttributeMapping;
  /** Whether the values were checked against the platform's published documentation. */
  checked: boolean;
  /** Parameters of the platform's authorization request beyond RFC 6749's. */
  authorizeParams?: Readonly<Record<string, string>>;
  /**
   * What the platform does not publish, besides the settings the operator must ask it for
   * (`OIDC_PRESET_ASKS`): the values here are EduPass's guess, to check with the platform.
   */
  assumed?: readonly string[];
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
  /**
   * The national smart education platform (国家智慧教育公共服务平台) as it publishes its sign-in for
   * listed apps (system.smartedu.cn, "Oauth认证类接口"): OAuth 2, `GET /uias/oauth/authorize` with
   * `grant_type=authorization_code`, `response_type=code`, `client_id` (the AppId), `redirect_uri` and
   * `scope=userInfo` (a code valid 5 minutes, used once), then `POST /uias/oauth/token` with the code,
   * `grant_type`, `client_id`, `client_secret` (the AppKey) and `redirect_uri` (an access token valid 2
   * hours). User information is a separate call whose address the platform gives a listed app, not
   * published (`OIDC_PRESET_ASKS`: the console asks for it); its field names are a guess (`assumed`).
   */
  smartedu: {
    protocol: 'oauth2',
    scopes: ['userInfo'],
    tokenAuth: 'client_secret_post',
    authorizeParams: { grant_type: 'authorization_code' },
    assumed: [
      'the user information call (a GET with the access token as a Bearer header) and its fields: mapping',
      'state, PKCE and the token answer beyond access_token (sent and read as RFC 6749 says)',
    ],
    mapping: {
      ...DEFAULT_MAPPING,
      subject: 'user_id',
      role_attribute: 'identity',
      teacher_values: ['teacher', '教师'],
      pupil_values: ['student', '学生'],
      class_attribute: 'class_name',
      name_attribute: 'real_name',
    },
    checked: true,
  },
  /**
   * A provincial or municipal education cloud (省/市教育云) with OAuth2 sign-in, of the national
   * platform's shape: an authorization request for a code, a token request with the client secret in
   * the form, then user information by a separate call. Each cloud gives its own addresses to the apps
   * it lists and publishes them to no one else (`OIDC_PRESET_ASKS`: the console asks for all three);
   * what else is a guess is `assumed`.
   */
  'edu-cloud': {
    protocol: 'oauth2',
    scopes: ['basic'],
    tokenAuth: 'client_secret_post',
    assumed: [
      'the scope (basic): scopes',
      'the user information call (a GET with the access token as a Bearer header) and its fields: mapping',
      'state, PKCE and the token answer beyond access_token (sent and read as RFC 6749 says)',
    ],
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

/** The name the client secret is sealed under: the connector's own. */
export const secretName = (code: string) => `school-connector:${code}:client_secret`;

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
  const presetName = typeof settings.preset === 'string' ? (settings.preset as OidcPresetName) : 'oidc';
  for (const asked of OIDC_PRESET_ASKS[presetName] ?? []) {
    if (settings[asked] === undefined || settings[asked] === '') {
      throw invalidRequest(`settings.${asked} must be given: the platform does not publish it, ask it for the value.`);
    }
  }
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
    ...(preset.authorizeParams ? { authorizeParams: preset.authorizeParams } : {}),
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
    ? {}
    : {
        // What the operator had to ask the platform for, and what EduPass guesses: shown, never stored.
        asked_of_platform: OIDC_PRESET_ASKS[s.preset as OidcPresetName] ?? [],
        assumed: OIDC_PRESETS[s.preset as OidcPresetName]?.assumed ?? [],
      }),
  ...(withSecret
    ? { client_secret_sealed: s.clientSecretSealed }
    : {
        redirect_uri: oidcRedirectUri(ctx, code),
        ...(s.protocol === 'oidc'
          ? { backchannel_logout_uri: oidcLogoutUri(ctx, code), post_logout_redirect_uri: signedOutPage(ctx) }
          : {}),
      }),
});
