/**
 * The agreements gate is part of finishing a sign-in, decided by the server: an account with an
 * agreement in effect left to sign cannot complete an OpenID Connect interaction nor be handed a return
 * address (E_15, whatever order the web client's answers arrive in), and an application's sign-in on a
 * provider session that already exists goes through the web client (its gate) rather than straight back.
 */

import { IDENTITY_BASE } from '@edupass/protocol';
import { A, type Account, expectError, signAgreementsInEffect, signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover, interactionCall, interactionOf } from '@edupass/test-kit/oidc-flow';
import { insertAgreement } from '@edupass/test-kit/server';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call, adoptOwnUrl } = useIssuerServer();
const CALLBACK = 'https://courses.example.com/callback';

let app: { id: string; secret: string };
let user: Account;
let version = 1;

/** A new version of the privacy policy, in effect from now: every account has it left to sign. */
const publishPrivacy = async () => {
  const now = Date.now();
  version += 1;
  await insertAgreement(server.app.ctx.db, {
    code: 'privacy',
    title: '隐私政策 / Privacy Policy',
    version,
    url: `/legal/privacy?version=${version}`,
    content: `Version ${version}.`,
    effective_at: now - 1000,
    created_at: now,
  });
};

const checkReturn = (token?: string) =>
  call('POST', `${IDENTITY_BASE}/return`, { redirect: `${CALLBACK}?from=edupass` }, token ? { token } : {});

beforeAll(async () => {
  adoptOwnUrl();
  const made = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] });
  app = { id: made.application.client_id, secret: String(made.client_secret) };
  user = await signUpAgreed(server);
  await publishPrivacy();
});

describe('a sign-in with an agreement left to sign', () => {
  it('does not complete an interaction (E_15) until the agreements are signed; then it does', async () => {
    const browser = cookieBrowser();
    const { landed } = await authorize(await discover(server, app.id, app.secret), browser, CALLBACK);
    const uid = interactionOf(landed);
    for (let i = 0; i < 3; i++) {
      expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, user.token), 'E_15');
    }
    const toSign = await call<{ code: string }[]>('GET', `${A}/agreements/need-sign`, undefined, { token: user.token });
    expect(toSign.body.map((a) => a.code)).toEqual(['privacy']);
    await signAgreementsInEffect(server, user.token);
    expect(await complete(server, browser, landed, user.token, CALLBACK)).toMatch(/[?&]code=/);
  });

  it('is handed no return address (E_15) while signed in; a visitor still learns whether it is allowed', async () => {
    await publishPrivacy();
    expectError(await checkReturn(user.token), 'E_15');
    expect((await checkReturn()).body).toEqual({
      redirect: `${CALLBACK}?from=edupass`,
      app_name: 'Courses',
      app_logo_url: '',
    });
    // A refused address stays refused, signed in or not.
    expectError(
      await call('POST', `${IDENTITY_BASE}/return`, { redirect: 'https://phish.example.com/' }, { token: user.token }),
      'E_1',
    );
    await signAgreementsInEffect(server, user.token);
    expect((await checkReturn(user.token)).status).toBe(200);
  });

  it('on a provider session that already exists, goes through the web client rather than back to the application', async () => {
    const browser = cookieBrowser();
    const config = await discover(server, app.id, app.secret);
    const first = await authorize(config, browser, CALLBACK);
    await complete(server, browser, first.landed, user.token, CALLBACK);
    // Signed in at the provider: the next authorization goes straight back…
    expect((await authorize(config, browser, CALLBACK)).landed.startsWith(CALLBACK)).toBe(true);
    // …until a new version is published: then through the interaction, refused until signed.
    await publishPrivacy();
    const again = await authorize(config, browser, CALLBACK);
    expect(again.landed.startsWith(CALLBACK)).toBe(false);
    const uid = interactionOf(again.landed);
    expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, user.token), 'E_15');
    await signAgreementsInEffect(server, user.token);
    expect(await complete(server, browser, again.landed, user.token, CALLBACK)).toMatch(/[?&]code=/);
  });
});
