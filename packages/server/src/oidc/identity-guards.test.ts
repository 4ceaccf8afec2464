/**
 * What the server refuses around the identity provider: an authorization code used by two requests
 * at once, an authorization without PKCE, return addresses outside the allow-list, application
 * management by anyone but an operator.
 */
import { IDENTITY_BASE } from '@edupass/protocol';
import { type Account, auditorToken, expectError, signInOperator, signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover } from '@edupass/test-kit/oidc-flow';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const CORS_ORIGIN = 'https://classroom.example.com';
const { server, call, adoptOwnUrl } = useIssuerServer({ corsOrigins: [CORS_ORIGIN] });
const CALLBACK = 'https://courses.example.com/callback';

let user: Account;
let app: { id: string; secret: string };

beforeAll(async () => {
  adoptOwnUrl();
  user = await signUpAgreed(server);
  const made = await registerApp(server, {
    name: 'Courses',
    logo_url: 'https://courses.example.com/logo.png',
    redirect_uris: [CALLBACK],
    require_pkce: true,
  });
  app = { id: made.application.client_id, secret: String(made.client_secret) };
});

describe('the provider', () => {
  it('exchanges an authorization code once when several requests present it at the same moment', async () => {
    const browser = cookieBrowser();
    const config = await discover(server, app.id, app.secret);
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    const callback = await complete(server, browser, landed, user.token, CALLBACK);
    const code = String(new URL(callback).searchParams.get('code'));
    const basic = Buffer.from(`${app.id}:${app.secret}`).toString('base64');
    const exchange = () =>
      fetch(`${server.url}/oidc/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: CALLBACK,
          code_verifier: checks.pkceCodeVerifier,
        }),
      });
    const answers = await Promise.all(Array.from({ length: 6 }, exchange));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'invalid_grant' });
    }
  });

  it('refuses an authorization without PKCE from an application that requires it, and a client secret that is wrong', async () => {
    const browser = cookieBrowser();
    const config = await discover(server, app.id, app.secret);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state: 's' });
    const back = new URL(await browser.follow(url.href, (next) => next.startsWith(CALLBACK)));
    expect(back.searchParams.get('error')).toBe('invalid_request');

    const wrongSecret = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${app.id}:${app.secret}x`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'anything' }),
    });
    expect(wrongSecret.status).toBe(401);
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('keeps its pages out of frames', async () => {
    const discovery = await fetch(`${server.url}/oidc/.well-known/openid-configuration`);
    expect(discovery.headers.get('x-frame-options')).toBe('DENY');
    expect(discovery.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
  });
});

describe('return addresses (POST identity/return)', () => {
  const check = (redirect: unknown) => call('POST', `${IDENTITY_BASE}/return`, { redirect });

  it("accepts PUBLIC_URL, CORS_ORIGINS and a registered application's origin", async () => {
    expect((await check(`${server.url}/account`)).status).toBe(200);
    expect((await check(`${CORS_ORIGIN}/lesson/3`)).body).toMatchObject({ redirect: `${CORS_ORIGIN}/lesson/3` });
    expect((await check('https://courses.example.com/welcome?x=1')).body).toEqual({
      redirect: 'https://courses.example.com/welcome?x=1',
      app_name: 'Courses',
      app_logo_url: 'https://courses.example.com/logo.png',
    });
    expect((await check(`${server.url}/account`)).body).toEqual({
      redirect: `${server.url}/account`,
      app_name: '',
      app_logo_url: '',
    });
  });

  it('refuses anything else with E_1, never a 500', async () => {
    for (const redirect of [
      'https://evil.example.com/',
      'https://courses.example.com.evil.example/',
      'https://user:pw@courses.example.com/',
      'javascript:alert(1)',
      '//courses.example.com/',
      '/account',
      'not a url',
      42,
    ]) {
      expectError(await check(redirect), 'E_1');
    }
  });
});

describe('application management', () => {
  it('is audited: who registered, rotated and removed which application', async () => {
    const operator = await signInOperator(server);
    const made = await registerApp(
      server,
      { name: 'Audited', redirect_uris: ['https://a.example.com/cb'] },
      operator.token,
    );
    const target = `application:${made.application.client_id}`;
    const path = `/admin/applications/${made.application.client_id}`;
    expect((await call('POST', `${path}/secret`, {}, { token: operator.token })).status).toBe(200);
    expect((await call('POST', `${path}/remove`, {}, { token: operator.token })).status).toBe(204);
    const log = await call<{ action: string; target: string }[]>('GET', '/admin/audit', undefined, {
      token: await auditorToken(server),
    });
    const actions = log.body.filter((entry) => entry.target === target).map((entry) => entry.action);
    expect(actions.sort()).toEqual(['application.add', 'application.remove', 'application.secret.rotate']);
  });

  it('is for operators only', async () => {
    expectError(await call('GET', '/admin/applications', undefined, { token: user.token }), 'E_4');
    expectError(await call('GET', '/admin/applications'), 'E_0');
    expectError(
      await call(
        'POST',
        '/admin/applications',
        { name: 'X', redirect_uris: ['https://x.example.com/cb'], first_party: true, confidential: true },
        { token: user.token },
      ),
      'E_4',
    );
  });
});
