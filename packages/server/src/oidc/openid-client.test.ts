/**
 * A real relying party, openid-client, against EduPass's provider: discovery, the code flow with
 * PKCE (the browser's part by plain HTTP with cookies, the web client's part by its API calls),
 * token, userinfo, refresh, single sign-on into a second application, prompt=login, consent for a
 * third party, a key rotation in the middle, and RP-initiated logout ending everything.
 */
import { INTERACTION_PARAM } from '@edupass/protocol';
import { type Account, expectError, PASSWORD, signIn } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { client } from '@edupass/test-kit/http-client';
import { registerApp, signUpBeforeAuthorizations, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import {
  authorize,
  complete,
  discover,
  INTERACTIONS,
  interactionCall,
  interactionOf,
  signOutThroughApp,
} from '@edupass/test-kit/oidc-flow';
import { decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { rotateSigningKey, signingKeys } from '../services/sessions/signing-keys.ts';

const { server, call, adoptOwnUrl } = useIssuerServer();

const CALLBACK_A = 'http://127.0.0.1:7001/callback';
const CALLBACK_B = 'http://127.0.0.1:7002/callback';
const CALLBACK_C = 'http://127.0.0.1:7003/callback';
const LOGGED_OUT_A = 'http://127.0.0.1:7001/signed-out';
const I = INTERACTIONS;

describe('openid-client against the provider', () => {
  let user: Account;
  let appA: { id: string; secret: string };
  let appB: string;
  let appC: string;
  const browser = cookieBrowser();

  beforeAll(async () => {
    adoptOwnUrl();
    user = await signUpBeforeAuthorizations(server);
    const a = await registerApp(server, {
      redirect_uris: [CALLBACK_A],
      post_logout_redirect_uris: [LOGGED_OUT_A],
      logo_url: 'https://courses.example.com/logo.png',
    });
    appA = { id: a.application.client_id, secret: String(a.client_secret) };
    appB = (await registerApp(server, { name: 'Community', redirect_uris: [CALLBACK_B], confidential: false }))
      .application.client_id;
    appC = (
      await registerApp(server, {
        name: 'Quiz Corner',
        redirect_uris: [CALLBACK_C],
        first_party: false,
        confidential: false,
      })
    ).application.client_id;
  });

  it('signs in by code + PKCE, answers userinfo and refreshes; a second app then signs in without credentials', async () => {
    const config = await discover(server, appA.id, appA.secret);
    expect(config.serverMetadata().issuer).toBe(`${server.url}/oidc`);
    expect(config.serverMetadata().code_challenge_methods_supported).toContain('S256');

    const { landed, checks } = await authorize(config, browser, CALLBACK_A, {
      scope: 'openid profile phone offline_access',
    });
    expect(landed.startsWith(`${server.url}/sign-in?`)).toBe(true);
    const shown = await interactionCall<{
      app: { name: string; first_party: boolean };
      claims: string[];
      consent: boolean;
    }>(server, browser, 'GET', interactionOf(landed));
    expect(shown.status).toBe(200);
    expect(shown.body.app).toMatchObject({ name: 'Courses', first_party: true });
    expect(shown.body.claims).toEqual(expect.arrayContaining(['phone_number', 'nickname']));
    expect(shown.body.consent).toBe(false);

    const callback = await complete(server, browser, landed, user.token, CALLBACK_A);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), checks);
    const claims = tokens.claims();
    expect(claims?.sub).toBe(String(user.userId));
    expect(tokens.refresh_token).toBeTypeOf('string');

    const info = await oidc.fetchUserInfo(config, tokens.access_token, String(user.userId));
    expect(info).toMatchObject({ sub: String(user.userId), phone_number: user.phone, phone_number_verified: true });
    expect(info.nickname).toBeTypeOf('string');

    // A key rotation in the middle signs nobody out: refresh and userinfo go on, new ID tokens use the new key.
    await rotateSigningKey(server.app.ctx, true);
    const refreshed = await oidc.refreshTokenGrant(config, String(tokens.refresh_token));
    expect(refreshed.claims()?.sub).toBe(String(user.userId));
    const kidOf = (jwt: string | undefined) => decodeProtectedHeader(String(jwt)).kid;
    const [newest] = (await signingKeys(server.app.ctx).privateJwks()).keys;
    expect(kidOf(refreshed.id_token)).toBe(newest?.kid);
    expect(kidOf(tokens.id_token)).not.toBe(newest?.kid);
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, String(user.userId))).resolves.toMatchObject({
      sub: String(user.userId),
    });

    // Single sign-on: the second (public, first-party) application gets a code with no interaction.
    const configB = await discover(server, appB);
    const second = await authorize(configB, browser, CALLBACK_B);
    expect(second.landed.startsWith(CALLBACK_B)).toBe(true);
    const tokensB = await oidc.authorizationCodeGrant(configB, new URL(second.landed), second.checks);
    expect(tokensB.claims()?.sub).toBe(String(user.userId));
  });

  it('prompt=login asks for a sign-in newer than the request, whatever session exists', async () => {
    const config = await discover(server, appA.id, appA.secret);
    const { landed, checks } = await authorize(config, browser, CALLBACK_A, { prompt: 'login' });
    const uid = interactionOf(landed);
    const shown = await interactionCall<{ fresh_sign_in: boolean }>(server, browser, 'GET', uid);
    expect(shown.body.fresh_sign_in).toBe(true);
    expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, user.token), 'E_7');
    const fresh = await signIn(server, user.phone, PASSWORD);
    const callback = await complete(server, browser, landed, fresh.access.token, CALLBACK_A);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), checks);
    expect(tokens.claims()?.sub).toBe(String(user.userId));
  });

  it('max_age older than the session asks for a fresh sign-in too; auth_time is when the session began', async () => {
    const config = await discover(server, appA.id, appA.secret);
    const { landed, checks } = await authorize(config, browser, CALLBACK_A, { max_age: '0' });
    const uid = interactionOf(landed);
    expect((await interactionCall<{ fresh_sign_in: boolean }>(server, browser, 'GET', uid)).body.fresh_sign_in).toBe(
      true,
    );
    expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, user.token), 'E_7');
    const fresh = await signIn(server, user.phone, PASSWORD);
    const callback = await complete(server, browser, landed, fresh.access.token, CALLBACK_A);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { ...checks, maxAge: 0 });
    expect(tokens.claims()?.auth_time).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 60);
  });

  it('a third-party application needs consent; refusing sends access_denied back', async () => {
    const config = await discover(server, appC);
    const first = await authorize(config, browser, CALLBACK_C);
    const uid = interactionOf(first.landed);
    const shown = await interactionCall<{ consent: boolean; app: { first_party: boolean } }>(
      server,
      browser,
      'GET',
      uid,
    );
    expect(shown.body).toMatchObject({ consent: true, app: { first_party: false } });
    expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, user.token), 'E_1');
    const denied = await interactionCall<{ redirect_to: string }>(
      server,
      browser,
      'POST',
      `${uid}/deny`,
      {},
      user.token,
    );
    const back = await browser.follow(denied.body.redirect_to, (next) => next.startsWith(CALLBACK_C));
    expect(new URL(back).searchParams.get('error')).toBe('access_denied');

    const again = await authorize(config, browser, CALLBACK_C);
    const callback = await complete(server, browser, again.landed, user.token, CALLBACK_C, { consent: true });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), again.checks);
    expect(tokens.claims()?.sub).toBe(String(user.userId));
  });

  it('an unknown or expired interaction is E_2; completing needs a signed-in user', async () => {
    expectError(await call('GET', `${I}/no-such-interaction`), 'E_2');
    expectError(await call('POST', `${I}/no-such-interaction/complete`, {}), 'E_0');
  });

  it('RP-initiated logout ends the provider session, every application grant and the EduPass session', async () => {
    const config = await discover(server, appA.id, appA.secret);
    const configB = await discover(server, appB);
    const a = await authorize(config, browser, CALLBACK_A);
    expect(a.landed.startsWith(CALLBACK_A)).toBe(true);
    const tokensA = await oidc.authorizationCodeGrant(config, new URL(a.landed), a.checks);
    const b = await authorize(configB, browser, CALLBACK_B);
    const tokensB = await oidc.authorizationCodeGrant(configB, new URL(b.landed), b.checks);

    const confirmed = await signOutThroughApp(config, browser, String(tokensA.id_token), {
      post_logout_redirect_uri: LOGGED_OUT_A,
    });
    expect(confirmed.location?.startsWith(LOGGED_OUT_A)).toBe(true);

    await expect(oidc.fetchUserInfo(configB, tokensB.access_token, String(user.userId))).rejects.toThrow();
    await expect(oidc.fetchUserInfo(config, tokensA.access_token, String(user.userId))).rejects.toThrow();
    // The EduPass session the sign-in stood on has ended too: the next authorization asks for a sign-in.
    expectError(
      await client(server.url)('GET', '/tiger/v3/web/accounts/profile', undefined, { token: user.token }),
      'E_0',
    );
    const next = await authorize(config, browser, CALLBACK_A);
    expect(new URL(next.landed).searchParams.has(INTERACTION_PARAM)).toBe(true);
  });
});
