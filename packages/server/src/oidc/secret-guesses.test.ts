/**
 * Client secrets cannot be guessed at speed: past the limit of wrong secrets for one client from one
 * address, /oidc/token (and the provider's introspection) and /introspect refuse even the right
 * secret until the window ends; the limit holds under parallel guesses; another address is not held,
 * and an IPv6 client's whole /64 is one address. A right secret is never counted: twice the limit of
 * an application's requests at once, all with the right secret, are all authenticated.
 */
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SECRET_GUESSES } from '../services/security/client-secrets.ts';

const { server, adoptOwnUrl } = useIssuerServer({
  introspectionSecrets: { edupass: 'product-secret-of-edupass' },
  trustProxy: ['127.0.0.1'],
});
let app: { id: string; secret: string };

beforeAll(async () => {
  adoptOwnUrl();
  const made = await registerApp(server, { redirect_uris: ['https://courses.example.com/callback'] });
  app = { id: made.application.client_id, secret: String(made.client_secret) };
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

const post = (path: string, id: string, secret: string, ip: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: basic(id, secret),
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': ip,
    },
    body: new URLSearchParams({ token: 'anything', grant_type: 'refresh_token', refresh_token: 'anything' }),
  }).then((answer) => answer.status);

describe('right client secrets at once', () => {
  it.each([
    ['/oidc/token', () => app.id, () => app.secret, 400, '203.0.113.10'],
    ['/oidc/token/introspection', () => app.id, () => app.secret, 200, '203.0.113.11'],
    ['/introspect', () => 'edupass', () => 'product-secret-of-edupass', 200, '203.0.113.12'],
  ])(
    'at %s: twice the limit in flight from one address are all authenticated',
    async (path, id, secret, rightStatus, ip) => {
      const answers = await Promise.all(
        Array.from({ length: CLIENT_SECRET_GUESSES.limit * 2 }, () => post(path, id(), secret(), ip)),
      );
      expect(answers).toEqual(answers.map(() => rightStatus));
      // …and they held nothing: the limit's wrong secrets still lock, one past it refuses the right one.
      const wrong = await Promise.all(
        Array.from({ length: CLIENT_SECRET_GUESSES.limit + 1 }, (_, i) => post(path, id(), `wrong-${i}`, ip)),
      );
      expect(wrong.every((status) => status !== rightStatus)).toBe(true);
      expect(await post(path, id(), secret(), ip)).not.toBe(rightStatus);
    },
  );
});

describe('wrong client secrets', () => {
  // Each case guesses from an address of its own: the first two hold the same client, and a case
  // meeting the address the one before it held would find the right secret refused from its start.
  it.each([
    ['/oidc/token', () => app.id, () => app.secret, 400, 401, '203.0.113.1'],
    ['/oidc/token/introspection', () => app.id, () => app.secret, 200, 401, '203.0.113.2'],
    ['/introspect', () => 'edupass', () => 'product-secret-of-edupass', 200, 403, '203.0.113.3'],
  ])('at %s: limited per client and address, atomically', async (path, id, secret, rightStatus, refused, ip) => {
    expect(await post(path, id(), secret(), ip)).toBe(rightStatus);
    const guesses = await Promise.all(
      Array.from({ length: CLIENT_SECRET_GUESSES.limit * 2 }, (_, i) => post(path, id(), `wrong-${i}`, ip)),
    );
    expect(guesses.every((status) => status === refused)).toBe(true);
    // Held: the right secret is refused too from this address, not from another one.
    expect(await post(path, id(), secret(), ip)).toBe(refused);
    expect(await post(path, id(), secret(), '198.51.100.7')).toBe(rightStatus);
  });

  it('an IPv6 client is counted by its /64: a new address for each guess is held like one', async () => {
    const network = '2001:db8:5ec:1';
    const guesses = await Promise.all(
      Array.from({ length: CLIENT_SECRET_GUESSES.limit + 1 }, (_, i) =>
        post('/oidc/token', app.id, `wrong-${i}`, `${network}::${i + 1}`),
      ),
    );
    expect(guesses.every((status) => status === 401)).toBe(true);
    expect(await post('/oidc/token', app.id, app.secret, `${network}:ffff::1`)).toBe(401);
    expect(await post('/oidc/token', app.id, app.secret, '2001:db8:5ec:2::1')).toBe(400);
  });
});
