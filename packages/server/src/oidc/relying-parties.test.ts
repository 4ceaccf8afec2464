/**
 * What relying parties' libraries rely on (relying-parties.ts): RS256 ID tokens offered and given by
 * default, ES256 on request, both from keys apart from the access-token key; profile claims in the
 * ID token; PKCE required of public applications and of confidential ones that ask for it; RFC 9068
 * JWT access tokens for the configured API resources; redirect URIs editable after registration.
 */
import { type Account, expectError, signInOperator, signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover } from '@edupass/test-kit/oidc-flow';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { runApps } from '../cli/apps.ts';

const API = 'https://api.school.example/';
const { server, call, adoptOwnUrl } = useIssuerServer({ oidcResources: [API] });
const CALLBACK = 'https://courses.example.com/callback';
const MOVED = 'https://learn.example.com/callback';

let user: Account;
let operator: string;

beforeAll(async () => {
  adoptOwnUrl();
  user = await signUpAgreed(server);
  operator = (await signInOperator(server)).token;
});

const confidentialApp = async (extra: { require_pkce?: boolean; id_token_signed_response_alg?: string } = {}) => {
  const made = await registerApp(server, { redirect_uris: [CALLBACK], ...extra }, operator);
  return { id: made.application.client_id, secret: String(made.client_secret), view: made.application };
};

/** An authorization without PKCE: where the provider sends the browser back to. */
const withoutPkce = async (config: oidc.Configuration) => {
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state: 's' });
  return new URL(
    await cookieBrowser().follow(url.href, (next) => next.startsWith(CALLBACK) || next.includes('interaction=')),
  );
};

const signInWith = async (config: oidc.Configuration, extra: Record<string, string> = {}) => {
  const browser = cookieBrowser();
  const { landed, checks } = await authorize(config, browser, CALLBACK, extra);
  const callback = await complete(server, browser, landed, user.token, CALLBACK);
  return oidc.authorizationCodeGrant(
    config,
    new URL(callback),
    checks,
    extra.resource ? { resource: extra.resource } : undefined,
  );
};

describe('discovery', () => {
  it('offers the response types an application can be registered for: the code flow and the ID token alone', async () => {
    const metadata = (await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json()) as {
      response_types_supported: string[];
    };
    expect(metadata.response_types_supported.sort()).toEqual(['code', 'id_token']);
  });
});

describe('ID tokens', () => {
  it('are RS256 by default and ES256 on request, from keys apart from the access-token key (distinct kids)', async () => {
    const discovery = await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json();
    expect(discovery.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'ES256']));
    const jwks = (await (await fetch(discovery.jwks_uri)).json()) as { keys: { kid: string; alg: string }[] };
    const accessKids = (
      (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }
    ).keys.map((key) => key.kid);
    expect(jwks.keys.map((key) => key.alg)).toEqual(expect.arrayContaining(['RS256', 'ES256']));
    expect(new Set(jwks.keys.map((key) => key.kid)).size).toBe(jwks.keys.length);
    expect(jwks.keys.map((key) => key.kid)).toEqual(expect.arrayContaining(accessKids));

    const rs = await confidentialApp();
    expect(rs.view.id_token_signed_response_alg).toBe('RS256');
    const tokens = await signInWith(await discover(server, rs.id, rs.secret));
    const header = decodeProtectedHeader(String(tokens.id_token));
    expect(header.alg).toBe('RS256');
    expect(accessKids).not.toContain(header.kid);

    const es = await confidentialApp({ id_token_signed_response_alg: 'ES256' });
    const esTokens = await signInWith(await discover(server, es.id, es.secret));
    const esHeader = decodeProtectedHeader(String(esTokens.id_token));
    expect(esHeader.alg).toBe('ES256');
    expect(accessKids).not.toContain(esHeader.kid);
    // Both signatures (node:crypto's, oidc/jwt-signers.ts) check against the published keys.
    const published = createRemoteJWKSet(new URL(discovery.jwks_uri));
    for (const [idToken, audience] of [
      [tokens.id_token, rs.id],
      [esTokens.id_token, es.id],
    ]) {
      const { payload } = await jwtVerify(String(idToken), published, { issuer: discovery.issuer, audience });
      expect(payload.sub).toBe(String(user.userId));
    }
    expectError(
      await call(
        'POST',
        '/admin/applications',
        {
          name: 'X',
          redirect_uris: [CALLBACK],
          first_party: true,
          confidential: true,
          id_token_signed_response_alg: 'HS256',
        },
        { token: operator },
      ),
      'E_1',
    );
  });

  it('carry the profile claims when the scope asks for them, and only then', async () => {
    const app = await confidentialApp();
    const config = await discover(server, app.id, app.secret);
    const profile = (await signInWith(config, { scope: 'openid profile' })).claims();
    expect(profile).toMatchObject({ sub: String(user.userId) });
    expect(profile?.name).toBeTypeOf('string');
    expect(profile?.name).toBe(profile?.nickname);
    expect(profile?.phone_number).toBeUndefined();
    const bare = (await signInWith(config, { scope: 'openid' })).claims();
    expect(bare?.name).toBeUndefined();
    expect(bare?.nickname).toBeUndefined();
  });
});

describe('PKCE', () => {
  it('is required of public applications, and of confidential ones only when they ask (the default is not)', async () => {
    const publicApp = await registerApp(server, { redirect_uris: [CALLBACK], confidential: false }, operator);
    expect(publicApp.application.require_pkce).toBe(true);
    const refused = await withoutPkce(await discover(server, publicApp.application.client_id));
    expect(refused.searchParams.get('error')).toBe('invalid_request');

    const app = await confidentialApp();
    expect(app.view.require_pkce).toBe(false);
    const config = await discover(server, app.id, app.secret);
    expect((await withoutPkce(config)).searchParams.get('interaction')).not.toBeNull();

    // The operator turns it on; the next authorization without PKCE is refused.
    const changed = await call('POST', `/admin/applications/${app.id}`, { require_pkce: true }, { token: operator });
    expect(changed.body).toMatchObject({ require_pkce: true, redirect_uris: [CALLBACK] });
    expect((await withoutPkce(config)).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('access tokens for an API resource (RFC 8707, RFC 9068)', () => {
  it('are at+jwt with client_id, jti, iat and the resource as aud, signed by the access-token key', async () => {
    const app = await confidentialApp();
    const config = await discover(server, app.id, app.secret);
    const tokens = await signInWith(config, { resource: API, scope: 'openid profile offline_access' });
    const header = decodeProtectedHeader(tokens.access_token);
    expect(header.typ).toBe('at+jwt');
    const { payload } = await jwtVerify(
      tokens.access_token,
      createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`)),
      {
        typ: 'at+jwt',
        audience: API,
        issuer: `${server.url}/oidc`,
      },
    );
    expect(payload).toMatchObject({ client_id: app.id, sub: String(user.userId) });
    expect(payload.jti).toBeTypeOf('string');
    expect(payload.iat).toBeTypeOf('number');
    // A refresh keeps the resource.
    const refreshed = await oidc.refreshTokenGrant(config, String(tokens.refresh_token), { resource: API });
    expect(decodeProtectedHeader(refreshed.access_token).typ).toBe('at+jwt');
  });

  it('are refused for a resource that is not configured (invalid_target)', async () => {
    const app = await confidentialApp();
    const config = await discover(server, app.id, app.secret);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid',
      resource: 'https://elsewhere.example/',
    });
    const back = new URL(await cookieBrowser().follow(url.href, (next) => next.startsWith(CALLBACK)));
    expect(back.searchParams.get('error')).toBe('invalid_target');
  });
});

describe('redirect URIs', () => {
  it('are changed by the admin API and `edupass apps update`; the next authorization uses the new ones', async () => {
    const app = await confidentialApp();
    const config = await discover(server, app.id, app.secret);
    const moved = await call('POST', `/admin/applications/${app.id}`, { redirect_uris: [MOVED] }, { token: operator });
    expect(moved.body).toMatchObject({ redirect_uris: [MOVED] });
    // The old address is no longer accepted: the provider shows its error page instead of redirecting.
    const old = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid' });
    const page = await cookieBrowser().request(old.href);
    expect(page.status).toBe(400);
    expect(page.body).toContain('redirect_uri');

    const printed = await runApps(server.app.ctx, 'update', app.id, {
      redirect: [CALLBACK, MOVED],
      'require-pkce': true,
    });
    expect(printed).toContain(`redirect: ${CALLBACK} ${MOVED}`);
    expect(printed).toContain('PKCE required');
    const listed = await call<{ client_id: string; redirect_uris: string[] }[]>(
      'GET',
      '/admin/applications',
      undefined,
      { token: operator },
    );
    expect(listed.body.find((a) => a.client_id === app.id)?.redirect_uris).toEqual([CALLBACK, MOVED]);

    expectError(await call('POST', `/admin/applications/${app.id}`, { redirect_uris: [] }, { token: operator }), 'E_1');
    expectError(
      await call('POST', `/admin/applications/${app.id}`, { redirect_uris: ['ftp://x'] }, { token: operator }),
      'E_1',
    );
    expectError(await call('POST', '/admin/applications/no-such-app', { name: 'x' }, { token: operator }), 'E_2');
    expectError(await call('POST', `/admin/applications/${app.id}`, { name: 'x' }, { token: user.token }), 'E_4');
  });
});
