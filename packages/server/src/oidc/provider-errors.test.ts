/**
 * The provider answers bad requests with OAuth errors, never a 500: a resume of an unknown
 * interaction, with or without a client.
 */
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, adoptOwnUrl } = useIssuerServer();
let clientId: string;

beforeAll(async () => {
  adoptOwnUrl();
  clientId = (await registerApp(server, { redirect_uris: ['https://courses.example.com/callback'] })).application
    .client_id;
});

describe('the provider under bad input', () => {
  it.each([
    () => `/oidc/auth/nothing?client_id=${clientId}`,
    () => '/oidc/auth/nothing?client_id=unknown',
    () => '/oidc/auth/nothing',
    () => `/oidc/auth/${'x'.repeat(300)}?client_id=${clientId}&redirect_uri=https://evil.example.com/`,
  ])('GET %s answers a 4xx OAuth error', async (path) => {
    const answer = await fetch(`${server.url}${path()}`, { redirect: 'manual' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});
