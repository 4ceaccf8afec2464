/**
 * The provider's URLs come from PUBLIC_URL, never from the request: a forged `Host`,
 * `X-Forwarded-Host`, `X-Forwarded-Proto`, `X-Forwarded-Port` or `Forwarded` (even from a trusted
 * proxy) changes neither discovery nor where the browser is sent during and after sign-in, and a
 * PUBLIC_URL on a non-default port keeps its port.
 */
import { request } from 'node:http';
import { signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { interactionCall } from '@edupass/test-kit/oidc-flow';
import { beforeAll, describe, expect, it } from 'vitest';

const PUBLIC_URL = 'https://id.example.edu:8443';
const ISSUER = `${PUBLIC_URL}/oidc`;
// The test connects from loopback: a trusted proxy, so forwarded headers are at their most believable.
const { server } = useIssuerServer({ publicUrl: PUBLIC_URL, trustProxy: ['127.0.0.1'] });
const CALLBACK = 'https://courses.example.com/callback';

/** A GET by node:http, which sends the `Host` given (fetch sets its own). */
const get = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; location: string; cookies: string[]; body: string }>((resolve, reject) => {
    const sent = request(url, { headers }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => {
        body += chunk;
      });
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          location: String(answer.headers.location ?? ''),
          cookies: answer.headers['set-cookie'] ?? [],
          body,
        }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });

const FORGED: Record<string, string>[] = [
  { host: 'evil.example.com' },
  { 'x-forwarded-host': 'evil.example.com' },
  { 'x-forwarded-host': 'evil.example.com:9999', 'x-forwarded-proto': 'http', 'x-forwarded-port': '9999' },
  { forwarded: 'host=evil.example.com;proto=http' },
  { host: 'evil.example.com', 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'http' },
  {},
];

let clientId: string;

beforeAll(async () => {
  clientId = (await registerApp(server, { redirect_uris: [CALLBACK], confidential: false })).application.client_id;
});

const ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'jwks_uri',
  'end_session_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
];

describe('the provider under PUBLIC_URL', () => {
  it.each(FORGED)('discovery names PUBLIC_URL with its port, whatever the request says (%j)', async (headers) => {
    const answer = await get(`${server.url}/oidc/.well-known/openid-configuration`, headers);
    expect(answer.status).toBe(200);
    const metadata = JSON.parse(answer.body) as Record<string, string>;
    expect(metadata.issuer).toBe(ISSUER);
    for (const name of ENDPOINTS) {
      if (metadata[name] !== undefined) expect(metadata[name], name).toMatch(new RegExp(`^${ISSUER}/`));
    }
    expect(metadata.jwks_uri).toBe(`${ISSUER}/jwks`);
    expect(metadata.token_endpoint).toBe(`${ISSUER}/token`);
  });

  it.each(FORGED)('the sign-in screen and the return after it are at PUBLIC_URL (%j)', async (headers) => {
    const user = await signUpAgreed(server);
    const browser = cookieBrowser();
    const authorize = new URL(`${server.url}/oidc/auth`);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })) {
      authorize.searchParams.set(name, value);
    }
    const started = await get(authorize.href, headers);
    expect(started.status).toBe(303);
    const location = started.location;
    expect(location.startsWith(`${PUBLIC_URL}/sign-in?interaction=`)).toBe(true);
    for (const line of started.cookies) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      browser.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const uid = String(new URL(location).searchParams.get('interaction'));
    const done = await interactionCall<{ redirect_to: string }>(
      server,
      browser,
      'POST',
      `${uid}/complete`,
      {},
      user.token,
    );
    expect(done.status).toBe(200);
    expect(done.body.redirect_to).toBe(`${ISSUER}/auth/${uid}`);
  });
});
