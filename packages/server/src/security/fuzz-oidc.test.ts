/**
 * A fixed-seed fuzz of the OpenID Connect provider under /oidc (its routes are not in the protocol's
 * route table, so security/fuzz.test.ts does not reach them): every endpoint, by GET and POST, with
 * arbitrary query and form parameters around a registered application's client id, anonymous and
 * with a signed-in user's cookie. No answer is a 5xx or a hang. Runs on SQLite and PostgreSQL.
 *
 * EDUPASS_FUZZ_RUNS sets the requests per endpoint and method (default 14), EDUPASS_FUZZ_SEED the seed.
 */
import { signUp } from '@edupass/test-kit/accounts';
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const RUNS = Number(process.env.EDUPASS_FUZZ_RUNS ?? 14);
const SEED = Number(process.env.EDUPASS_FUZZ_SEED ?? 20261122);

const { server, adoptOwnUrl } = useIssuerServer();
let clientId = '';
let secret = '';
let token = '';

beforeAll(async () => {
  adoptOwnUrl();
  const made = await registerApp(server, { redirect_uris: ['https://courses.example.com/callback'] });
  clientId = made.application.client_id;
  secret = String(made.client_secret);
  token = (await signUp(server)).token;
});

const ENDPOINTS = [
  '/oidc/auth',
  '/oidc/auth/{x}',
  '/oidc/token',
  '/oidc/token/introspection',
  '/oidc/token/revocation',
  '/oidc/me',
  '/oidc/jwks',
  '/oidc/session/end',
  '/oidc/session/end/confirm',
  '/oidc/session/end/success',
  '/oidc/.well-known/openid-configuration',
  '/oidc/{x}',
];

const PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'prompt',
  'max_age',
  'code_challenge',
  'code_challenge_method',
  'grant_type',
  'code',
  'code_verifier',
  'refresh_token',
  'token',
  'token_type_hint',
  'id_token_hint',
  'post_logout_redirect_uri',
  'xsrf',
  'logout',
  'request',
  'claims',
  'resource',
];

const value = fc.oneof(
  fc.string(),
  fc.constantFrom('openid profile phone email offline_access', 'code', 'S256', 'login', 'consent', 'none'),
  fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'https://courses.example.com/callback'),
  fc.constant('__client__'),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.integer().map(String),
);

interface OidcRequest {
  method: 'GET' | 'POST';
  path: string;
  params: Record<string, string>;
  basic: boolean;
  signedIn: boolean;
  x: string;
}

const requests = (endpoint: string) =>
  fc.record<OidcRequest>({
    method: fc.constantFrom('GET', 'POST'),
    path: fc.constant(endpoint),
    params: fc.dictionary(fc.constantFrom(...PARAMS), value, { maxKeys: 8 }),
    basic: fc.boolean(),
    signedIn: fc.boolean(),
    x: fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), fc.constant('x'.repeat(300))),
  });

/** Shapes that once answered 500, sent every run besides the sample. */
const KNOWN: OidcRequest[] = [
  { method: 'GET', path: '/oidc/auth/{x}', params: { client_id: '__client__' }, basic: false, signedIn: false, x: 'x' },
  { method: 'GET', path: '/oidc/auth/{x}', params: { client_id: '__client__' }, basic: false, signedIn: true, x: 'x' },
];

const tally = { requests: 0, fiveHundreds: 0 };

const send = async (request: OidcRequest) => {
  const params = Object.fromEntries(
    Object.entries(request.params).map(([name, v]) => [name, v === '__client__' ? clientId : v]),
  );
  const url = new URL(`${server.url}${request.path.replace('{x}', encodeURIComponent(request.x))}`);
  if (request.method === 'GET') for (const [name, v] of Object.entries(params)) url.searchParams.set(name, v);
  const headers: Record<string, string> = {};
  if (request.basic) headers.authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  if (request.signedIn) headers.cookie = `authorization=${token}`;
  if (request.method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
  const answer = await fetch(url, {
    method: request.method,
    headers,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
    ...(request.method === 'POST' ? { body: new URLSearchParams(params).toString() } : {}),
  });
  await answer.arrayBuffer();
  return answer.status;
};

afterAll(() => {
  console.info(`oidc fuzz on ${testDatabaseKind()}: ${tally.requests} requests, ${tally.fiveHundreds} answered 5xx`);
});

describe(`fuzz of the provider under /oidc (seed ${SEED}, ${RUNS * 2} per endpoint)`, () => {
  it.each(ENDPOINTS)('%s', async (endpoint) => {
    const failures: string[] = [];
    const sample = fc.sample(requests(endpoint), { seed: SEED + endpoint.length, numRuns: RUNS * 2 });
    for (const request of [...KNOWN.filter((known) => known.path === endpoint), ...sample]) {
      let status: number;
      try {
        status = await send(request);
      } catch (error) {
        status = 599;
        failures.push(`${String(error)} ← ${JSON.stringify(request).slice(0, 400)}`);
      }
      tally.requests++;
      if (status >= 500) {
        tally.fiveHundreds++;
        failures.push(`${status} ← ${JSON.stringify(request).slice(0, 400)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
