/**
 * The relying party's and the browser's parts of an OpenID Connect sign-in against the test server,
 * with openid-client: discovery, the authorization (redirects followed with cookies until the web
 * client's interaction or the application's callback), and the web client's completion.
 */
import { IDENTITY_BASE, INTERACTION_PARAM } from '@edupass/protocol';
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import { cookieBrowser } from './cookie-browser.ts';
import type { TestServer } from './harness.ts';
import { client } from './http-client.ts';

export type Browser = ReturnType<typeof cookieBrowser>;

export const INTERACTIONS = `${IDENTITY_BASE}/interactions`;

export const discover = (server: TestServer, clientId: string, secret?: string) =>
  oidc.discovery(
    new URL(`${server.url}/oidc`),
    clientId,
    secret === undefined ? { token_endpoint_auth_method: 'none' } : undefined,
    secret === undefined ? oidc.None() : oidc.ClientSecretBasic(secret),
    { execute: [oidc.allowInsecureRequests] },
  );

/** Starts an authorization in `browser`; answers where the provider sent it and the PKCE checks. */
export const authorize = async (
  config: oidc.Configuration,
  browser: Browser,
  redirectUri: string,
  extra: Record<string, string> = {},
) => {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile phone email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  const landed = await browser.follow(
    url.href,
    (next) => next.startsWith(redirectUri) || new URL(next).searchParams.has(INTERACTION_PARAM),
  );
  return { landed, checks: { pkceCodeVerifier: verifier, expectedState: state } };
};

export const interactionOf = (landed: string) => {
  const uid = new URL(landed).searchParams.get(INTERACTION_PARAM);
  if (uid === null) throw new Error(`not an interaction: ${landed}`);
  return uid;
};

/** The web client's calls about an interaction, made from `browser` (its cookies go along) as `token`. */
export const interactionCall = <T = unknown>(
  server: TestServer,
  browser: Browser,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) =>
  client(server.url)<T>(method, `${INTERACTIONS}/${path}`, body, {
    ...(token === undefined ? {} : { token }),
    headers: { cookie: browser.cookieHeader() },
  });

/** The web client's part: complete the interaction as `token`; the browser resumes to the app's callback. */
export const complete = async (
  server: TestServer,
  browser: Browser,
  landed: string,
  token: string,
  redirectUri: string,
  body: { consent?: boolean } = {},
) => {
  const answer = await interactionCall<{ redirect_to: string }>(
    server,
    browser,
    'POST',
    `${interactionOf(landed)}/complete`,
    body,
    token,
  );
  expect(answer.status).toBe(200);
  return browser.follow(answer.body.redirect_to, (next) => next.startsWith(redirectUri));
};

/**
 * The tokens of a confidential application (`app`) for the user of `userToken`, signed in through
 * their EduPass session with the authorization code flow (openid-client as the application).
 */
export const appTokensFor = async (
  server: TestServer,
  app: { id: string; secret: string },
  callback: string,
  userToken: string,
) => {
  const browser = cookieBrowser();
  const config = await discover(server, app.id, app.secret);
  const { landed, checks } = await authorize(config, browser, callback);
  const tokens = await oidc.authorizationCodeGrant(
    config,
    new URL(await complete(server, browser, landed, userToken, callback)),
    checks,
  );
  expect(tokens.refresh_token).toBeTypeOf('string');
  return { config, tokens, browser };
};

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) in `browser`: the application sends it
 * to the end-session endpoint with its ID token, and the user confirms on the provider's page.
 * Answers the confirmation's answer (its `location`: where the provider sent the browser after).
 */
export const signOutThroughApp = async (
  config: oidc.Configuration,
  browser: Browser,
  idToken: string,
  extra: Record<string, string> = {},
) => {
  const logout = oidc.buildEndSessionUrl(config, { id_token_hint: idToken, ...extra });
  const question = await browser.request(logout.href);
  expect(question.status).toBe(200);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(question.body)?.[1];
  expect(xsrf).toBeTypeOf('string');
  const action = /action="([^"]+)"/.exec(question.body)?.[1] ?? '';
  return browser.request(new URL(action, logout).href, { form: { xsrf: String(xsrf), logout: 'yes' } });
};

/**
 * The user of `userToken` signs in at a confidential application asking for `scope` (the grant
 * allowed): the scopes the tokens were given and the ID token's claims.
 */
export const signInAtApp = async (
  server: TestServer,
  app: { id: string; secret: string },
  callback: string,
  userToken: string,
  scope: string,
) => {
  const config = await discover(server, app.id, app.secret);
  const browser = cookieBrowser();
  const { landed, checks } = await authorize(config, browser, callback, { scope });
  const redirect = await complete(server, browser, landed, userToken, callback, { consent: true });
  const tokens = await oidc.authorizationCodeGrant(config, new URL(redirect), checks);
  return {
    config,
    tokens,
    scopes: String(tokens.scope ?? '').split(' '),
    idToken: tokens.claims() as oidc.IDToken & Record<string, unknown>,
  };
};
