/**
 * An OAuth 2.0 / OpenID Connect client for schools' education platforms: the authorization request
 * (authorization code with PKCE S256, state, and a nonce when OIDC), the code exchange, the ID token
 * verified with `jose` against the issuer's published keys (issuer, audience, expiry, nonce), and the
 * userinfo call. OIDC endpoints come from the issuer's discovery document (its `issuer` must be the
 * configured one, OpenID Connect Discovery §4.3); a plain OAuth2 platform names its endpoints.
 */
import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { fetchText, isRecord, jsonObject, ProviderUnreachableError } from './provider-http.ts';

export interface OidcEndpoints {
  authorization: string;
  token: string;
  /** '' when the platform has none (OIDC: the ID token's claims alone). */
  userinfo: string;
  /** OIDC only: where the issuer's signing keys are. */
  jwks: string;
  /** OIDC only: the issuer exactly as its discovery document names it, which ID tokens must carry. */
  issuer: string;
  /** OIDC only, '' when the platform has none: RP-Initiated Logout 1.0's `end_session_endpoint`. */
  endSession?: string | undefined;
}

export interface OidcClient {
  protocol: 'oidc' | 'oauth2';
  /** OIDC: the issuer (discovery at `<issuer>/.well-known/openid-configuration`); '' for OAuth2. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  tokenAuth: 'client_secret_basic' | 'client_secret_post';
  /**
   * Parameters a platform asks for in its authorization request beyond RFC 6749's (the national
   * platform's `grant_type=authorization_code`).
   */
  authorizeParams?: Readonly<Record<string, string>> | undefined;
}

/** The platform refused or answered something that is not a valid answer; the message says which. */
export class UpstreamRefused extends Error {
  override name = 'UpstreamRefused';
}

const ANSWER_MAX_CHARS = 256 * 1024;
/** The accepted clock difference with the platform. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** Discovery documents and key sets kept per process this long before they are fetched again. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Asymmetric algorithms only: an HS256 token would be signed with the client secret, which we also know. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const discovered = new Map<string, { at: number; endpoints: OidcEndpoints }>();
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

const getJson = async (url: string, init: RequestInit, timeoutMs: number, what: string) => {
  const answer = await fetchText(url, init, timeoutMs);
  if (answer.text.length > ANSWER_MAX_CHARS) throw new UpstreamRefused(`${what}: answer too large`);
  const body = jsonObject(answer.text);
  // The platform's own failure is an outage, not a refusal of this sign-in.
  if (answer.status >= 500) throw new ProviderUnreachableError(false, `${what}: HTTP ${answer.status}`);
  if (answer.status !== 200 || body === undefined) {
    const error = body && typeof body.error === 'string' ? ` (${body.error.slice(0, 80)})` : '';
    throw new UpstreamRefused(`${what}: HTTP ${answer.status}${error}`);
  }
  return body;
};

/**
 * An endpoint the discovery document names: https when the issuer is (a document fetched over https
 * must not send the keys or the code exchange over plain http).
 */
const urlField = (body: Record<string, unknown>, key: string, required: boolean, issuer: string): string => {
  const value = body[key];
  const scheme = issuer.startsWith('https:') ? /^https:\/\/./ : /^https?:\/\/./;
  if (typeof value === 'string' && scheme.test(value)) return value;
  if (!required && value === undefined) return '';
  throw new UpstreamRefused(`discovery: ${key} missing or not an ${issuer.startsWith('https:') ? 'https ' : ''}URL`);
};

/** The issuer's endpoints from its discovery document (kept an hour). */
export const discover = async (issuer: string, timeoutMs: number, now: number): Promise<OidcEndpoints> => {
  const kept = discovered.get(issuer);
  if (kept && now - kept.at < DISCOVERY_TTL_MS) return kept.endpoints;
  const body = await getJson(
    `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    { headers: { accept: 'application/json' } },
    timeoutMs,
    'discovery',
  );
  if (body.issuer !== issuer && body.issuer !== `${issuer}/`) {
    throw new UpstreamRefused('discovery: the document names another issuer');
  }
  const endpoints = {
    authorization: urlField(body, 'authorization_endpoint', true, issuer),
    token: urlField(body, 'token_endpoint', true, issuer),
    userinfo: urlField(body, 'userinfo_endpoint', false, issuer),
    jwks: urlField(body, 'jwks_uri', true, issuer),
    issuer: body.issuer,
    endSession: urlField(body, 'end_session_endpoint', false, issuer),
  };
  discovered.set(issuer, { at: now, endpoints });
  return endpoints;
};

/** The PKCE code challenge (S256, RFC 7636 §4.2) of a verifier. */
export const codeChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export const authorizationUrl = (
  client: OidcClient,
  endpoints: OidcEndpoints,
  request: {
    redirectUri: string;
    state: string;
    nonce: string;
    codeVerifier: string;
    /** The person signs in again even with a session at the platform (`prompt=login`, `max_age=0`). */
    freshSignIn?: boolean | undefined;
  },
): string => {
  const url = new URL(endpoints.authorization);
  for (const [name, value] of Object.entries(client.authorizeParams ?? {})) url.searchParams.set(name, value);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  if (client.scopes.length > 0) url.searchParams.set('scope', client.scopes.join(' '));
  url.searchParams.set('state', request.state);
  if (client.protocol === 'oidc') url.searchParams.set('nonce', request.nonce);
  url.searchParams.set('code_challenge', codeChallenge(request.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (request.freshSignIn) {
    url.searchParams.set('prompt', 'login');
    // OIDC Core §3.1.2.1: max_age makes `auth_time` a required claim, which the code exchange checks.
    if (client.protocol === 'oidc') url.searchParams.set('max_age', '0');
  }
  return url.toString();
};

export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier: string;
  /** OIDC: the nonce the authorization request carried. */
  nonce: string;
  /** OIDC, a fresh sign-in asked for: the ID token's `auth_time` may not be before this (unix s). */
  authSince?: number | undefined;
}

/**
 * A JWT the platform signed for this client (an ID token, a logout token), verified as OpenID Connect
 * Core §3.1.3.7 verifies an ID token: the issuer's published keys, asymmetric algorithms only, the
 * issuer, this client as audience (and as `azp` among several), the times with 60 s of skew, and
 * `required` present. UpstreamRefused names what is wrong; a key set out of reach is an outage.
 */
const verifyPlatformJwt = async (
  clientId: string,
  endpoints: OidcEndpoints,
  token: string,
  check: { required: string[]; maxAgeSeconds?: number },
  what: string,
  timeoutMs: number,
) => {
  let keys = keySets.get(endpoints.jwks);
  if (keys === undefined) {
    keys = createRemoteJWKSet(new URL(endpoints.jwks), { timeoutDuration: timeoutMs, cooldownDuration: 30_000 });
    keySets.set(endpoints.jwks, keys);
  }
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(token, keys, {
      issuer: endpoints.issuer,
      audience: clientId,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: check.required,
      ...(check.maxAgeSeconds === undefined ? {} : { maxTokenAge: check.maxAgeSeconds }),
    });
  } catch (error) {
    // The key set out of reach (a timeout, or no connection: fetch's own TypeError) is an outage.
    if (error instanceof joseErrors.JWKSTimeout) {
      throw new ProviderUnreachableError(true, `jwks: no answer within ${timeoutMs} ms`, { cause: error });
    }
    if (!(error instanceof joseErrors.JOSEError)) {
      throw new ProviderUnreachableError(false, `jwks: ${new URL(endpoints.jwks).host} could not be reached`, {
        cause: error,
      });
    }
    // A claim's failure says which claim and why (`unexpected "aud" claim value`).
    const claim =
      error instanceof joseErrors.JWTClaimValidationFailed || error instanceof joseErrors.JWTExpired
        ? ` (${error.message})`
        : '';
    throw new UpstreamRefused(`${what}: ${error.code}${claim}`);
  }
  const { payload } = verified;
  // Several audiences: the authorized party must be this client (OIDC Core §3.1.3.7).
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== clientId) {
    throw new UpstreamRefused(`${what}: azp is not this client`);
  }
  return verified;
};

/** Claims of a verified ID token; UpstreamRefused for a forged, expired, misaddressed or replayed one. */
const verifyIdToken = async (
  client: OidcClient,
  endpoints: OidcEndpoints,
  idToken: string,
  exchange: CodeExchange,
  timeoutMs: number,
) => {
  const since = exchange.authSince;
  const { payload } = await verifyPlatformJwt(
    client.clientId,
    endpoints,
    idToken,
    { required: since === undefined ? ['sub', 'exp', 'iat'] : ['sub', 'exp', 'iat', 'auth_time'] },
    'id_token',
    timeoutMs,
  );
  if (payload.nonce !== exchange.nonce) throw new UpstreamRefused('id_token: nonce does not match');
  // A platform that ignored prompt=login answers from the session someone else may have left open.
  if (
    since !== undefined &&
    !(typeof payload.auth_time === 'number' && payload.auth_time + CLOCK_TOLERANCE_SECONDS >= since)
  ) {
    throw new UpstreamRefused('id_token: auth_time is before this sign-in started (no fresh sign-in)');
  }
  return payload;
};

/** The event a logout token carries (Back-Channel Logout 1.0 §2.4), as a platform's and as EduPass's own. */
export const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How old a logout token may be (by its `iat`): a platform posts it as the person signs out. */
const LOGOUT_TOKEN_MAX_AGE_SECONDS = 300;
/** `typ` values a logout token may carry: its explicit type (Back-Channel Logout §2.4), or a plain JWT's. */
const LOGOUT_TYPES = /^(application\/)?(logout\+)?jwt$/i;

/** What a verified logout token names: the platform's session, the person there, or both. */
export interface PlatformLogout {
  /** The platform's session id (`sid`), as its ID tokens carried it. */
  session: string | undefined;
  /** The person at the platform (`sub`). */
  subject: string | undefined;
  /** The token's id (`jti`), taken once. */
  tokenId: string;
  /** Unix ms after which the token is too old to be taken, so its id need not be kept. */
  expiresAt: number;
}

/**
 * A logout token checked as OpenID Connect Back-Channel Logout 1.0 §2.6 asks: signed and addressed as
 * an ID token is; issued at most 5 minutes ago; with a `jti`; the back-channel logout event; `sub`,
 * `sid` or both; and no `nonce` (so an ID token cannot pass for one). UpstreamRefused names what is
 * wrong.
 */
export const verifyLogoutToken = async (
  clientId: string,
  endpoints: OidcEndpoints,
  token: string,
  timeoutMs: number,
): Promise<PlatformLogout> => {
  const { payload, protectedHeader } = await verifyPlatformJwt(
    clientId,
    endpoints,
    token,
    { required: ['iat', 'jti', 'events'], maxAgeSeconds: LOGOUT_TOKEN_MAX_AGE_SECONDS },
    'logout_token',
    timeoutMs,
  );
  if (protectedHeader.typ !== undefined && !LOGOUT_TYPES.test(protectedHeader.typ)) {
    throw new UpstreamRefused(`logout_token: typ ${protectedHeader.typ.slice(0, 40)} is not a logout token's`);
  }
  if (!isRecord(payload.events) || !isRecord(payload.events[LOGOUT_EVENT])) {
    throw new UpstreamRefused('logout_token: no back-channel logout event');
  }
  if ('nonce' in payload) throw new UpstreamRefused('logout_token: carries a nonce');
  const session = claimText(payload.sid);
  const subject = claimText(payload.sub);
  if (session === undefined && subject === undefined) throw new UpstreamRefused('logout_token: names no sid or sub');
  const tokenId = claimText(payload.jti);
  if (tokenId === undefined) throw new UpstreamRefused('logout_token: jti is not a string');
  const issuedAt = Number(payload.iat) * 1000;
  return {
    session,
    subject,
    tokenId,
    expiresAt: issuedAt + (LOGOUT_TOKEN_MAX_AGE_SECONDS + CLOCK_TOLERANCE_SECONDS) * 1000,
  };
};

/**
 * Exchanges the code (with the PKCE verifier) and returns the person's claims: the verified ID
 * token's, with the userinfo answer's (its `sub` must be the ID token's) for OIDC; the userinfo
 * answer's for OAuth2. The ID token itself too (OIDC), which signing out there names. Throws
 * UpstreamRefused or ProviderUnreachableError.
 */
export const exchangeCode = async (
  client: OidcClient,
  endpoints: OidcEndpoints,
  exchange: CodeExchange,
  timeoutMs: number,
): Promise<{ claims: Record<string, unknown>; idToken: string | undefined }> => {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: exchange.code,
    redirect_uri: exchange.redirectUri,
    code_verifier: exchange.codeVerifier,
  });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (client.tokenAuth === 'client_secret_post') {
    form.set('client_id', client.clientId);
    form.set('client_secret', client.clientSecret);
  } else {
    // RFC 6749 §2.3.1: each part form-encoded before Basic.
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  const tokens = await getJson(endpoints.token, { method: 'POST', headers, body: form.toString() }, timeoutMs, 'token');
  const accessToken = typeof tokens.access_token === 'string' ? tokens.access_token : '';
  let claims: Record<string, unknown> = {};
  if (client.protocol === 'oidc') {
    if (typeof tokens.id_token !== 'string') throw new UpstreamRefused('token: no id_token');
    claims = await verifyIdToken(client, endpoints, tokens.id_token, exchange, timeoutMs);
  }
  const idToken = typeof tokens.id_token === 'string' ? tokens.id_token : undefined;
  if (endpoints.userinfo === '') return { claims, idToken };
  if (accessToken === '') throw new UpstreamRefused('token: no access_token');
  const info = await getJson(
    endpoints.userinfo,
    { headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` } },
    timeoutMs,
    'userinfo',
  );
  if (client.protocol === 'oidc' && info.sub !== claims.sub) throw new UpstreamRefused('userinfo: another sub');
  // The verified ID token's claims win over userinfo's.
  return { claims: { ...info, ...claims }, idToken };
};

/**
 * Where the browser signs out at the platform (RP-Initiated Logout 1.0 §2): its end-session endpoint
 * with the ID token of the sign-in as the hint, this client, and where to come back (which the
 * platform must have registered for the client).
 */
export const endSessionUrl = (
  client: Pick<OidcClient, 'clientId'>,
  endSession: string,
  request: { idToken: string; postLogoutRedirectUri: string },
): string => {
  const url = new URL(endSession);
  url.searchParams.set('id_token_hint', request.idToken);
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('post_logout_redirect_uri', request.postLogoutRedirectUri);
  return url.toString();
};

/** A claim that names something (`sub`, `sid`, `jti`): a non-empty string, else undefined. */
export const claimText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Claims as the attribute mapping reads them: text values only (nested objects are left out). */
export const claimsAsAttributes = (claims: Record<string, unknown>): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  const text = (v: unknown) =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  for (const [key, value] of Object.entries(claims)) {
    const values = (Array.isArray(value) ? value : [value]).map(text).filter((v) => v !== undefined);
    if (values.length > 0 && !isRecord(value)) out[key] = values.slice(0, 64);
  }
  return out;
};

export { ProviderUnreachableError };
