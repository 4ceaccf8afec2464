/**
 * Third-party sign-in in tests, the way a browser does it over HTTP: start at the authorize endpoint
 * (state cookie + 302), open the development provider's screen, pick an identity, and follow the
 * provider back to the site with `code` and `state`.
 */
import { ACCOUNTS_BASE } from '@edupass/protocol';
import { beforeAll, expect } from 'vitest';
import type { OauthProviderName } from '../../server/src/adapters/oauth-provider.ts';
import type { BuildOptions } from '../../server/src/app.ts';
import type { Config } from '../../server/src/config/config.ts';
import { startTestServer, type TestServer, useTestServer } from './harness.ts';

/**
 * A test server whose PUBLIC_URL is its real address: the development providers live there and
 * redirects must point there. Tests listen on a random port, known only once listening.
 */
export const startOauthTestServer = async (
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestServer> => {
  const server = await startTestServer(overrides, options);
  server.config.publicUrl = server.url;
  return server;
};

/** `useTestServer` for such a server: one for the test file that calls this, its PUBLIC_URL its address. */
export const useOauthTestServer = (overrides: Partial<Config> = {}, options: BuildOptions = {}) => {
  const used = useTestServer(overrides, options);
  beforeAll(() => {
    used.server.config.publicUrl = used.server.url;
  });
  return used;
};

export interface ProviderReturn {
  code: string;
  state: string;
  /** The `Cookie` header the browser would send to the code steps. */
  cookie: string;
  redirectUri: string;
}

const location = (response: Response) => {
  expect(response.status, `expected a redirect from ${response.url}`).toBe(302);
  const value = response.headers.get('location');
  if (!value) throw new Error('redirect without Location');
  return value;
};

/** Starts a sign-in and returns the state cookie and the provider URL it redirected to. */
export const authorize = async (server: TestServer, provider: OauthProviderName, redirectUri: string) => {
  const response = await fetch(
    `${server.url}${ACCOUNTS_BASE}/oauth/${provider}/authorize?redirect=${encodeURIComponent(redirectUri)}`,
    { redirect: 'manual', headers: { accept: 'text/html' } },
  );
  const providerUrl = location(response);
  const cookieLine = response.headers.getSetCookie().find((line) => line.startsWith(`edupass_oauth_${provider}=`));
  if (!cookieLine) throw new Error('authorize set no state cookie');
  return { providerUrl, cookie: cookieLine.split(';')[0] ?? '', setCookie: cookieLine };
};

/** Picks (or creates) an identity on the development provider's screen; the site URL it returns to. */
export const pickIdentity = async (providerUrl: string, identity: string): Promise<string> => {
  const screen = await fetch(providerUrl);
  const html = await screen.text();
  expect(screen.status, html).toBe(200);
  const url = new URL(providerUrl);
  const confirm = new URL(
    url.pathname.endsWith('/qrconnect')
      ? url.pathname.replace(/\/qrconnect$/, '/confirm')
      : url.pathname.replace(/\/authorize$/, '/confirm'),
    url,
  );
  for (const name of ['appid', 'client_id', 'redirect_uri', 'state']) {
    const value = url.searchParams.get(name);
    if (value !== null) confirm.searchParams.set(name, value);
  }
  confirm.searchParams.set('identity', identity);
  return location(await fetch(confirm, { redirect: 'manual' }));
};

/** The whole provider round trip for `identity`: what the site's callback page receives. */
export const providerReturn = async (
  server: TestServer,
  provider: OauthProviderName,
  identity = '小明',
  redirectUri = `${server.url}/callback/${provider}`,
): Promise<ProviderReturn> => {
  const { providerUrl, cookie } = await authorize(server, provider, redirectUri);
  const back = new URL(await pickIdentity(providerUrl, identity));
  const code = back.searchParams.get('code');
  const state = back.searchParams.get('state');
  if (!code || !state) throw new Error(`provider came back without code or state: ${back}`);
  return { code, state, cookie, redirectUri };
};
