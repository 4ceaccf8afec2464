/**
 * Consent holds for a third-party application (openid-client as the application): it receives the
 * scopes the user granted and no more, whatever the prompt; asking for more shows the consent again.
 */
import { type Account, expectError, PASSWORD, signIn } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, signUpBeforeAuthorizations, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover, interactionCall, interactionOf } from '@edupass/test-kit/oidc-flow';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, adoptOwnUrl } = useIssuerServer();
const CALLBACK = 'https://quiz.example.com/callback';

let user: Account;
let quiz: string;

beforeAll(async () => {
  adoptOwnUrl();
  user = await signUpBeforeAuthorizations(server);
  quiz = (
    await registerApp(server, { name: 'Quiz', redirect_uris: [CALLBACK], first_party: false, confidential: false })
  ).application.client_id;
});

type Shown = { consent: boolean; claims: string[] };

describe('consent for a third-party application', () => {
  it('gives only the granted scopes, with prompt=login too; asking for more asks the user again', async () => {
    const browser = cookieBrowser();
    const config = await discover(server, quiz);
    const first = await authorize(config, browser, CALLBACK, { scope: 'openid profile' });
    expect((await interactionCall<Shown>(server, browser, 'GET', interactionOf(first.landed))).body.consent).toBe(true);
    const granted = await complete(server, browser, first.landed, user.token, CALLBACK, { consent: true });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(granted), first.checks);
    expect(tokens.scope?.split(' ').sort()).toEqual(['openid', 'profile']);

    // More scopes with prompt=login: a fresh sign-in is not consent to them.
    const more = await authorize(config, browser, CALLBACK, { scope: 'openid profile phone email', prompt: 'login' });
    const uid = interactionOf(more.landed);
    const shown = await interactionCall<Shown>(server, browser, 'GET', uid);
    expect(shown.body.consent).toBe(true);
    expect(shown.body.claims).toEqual(expect.arrayContaining(['phone_number', 'email']));
    const fresh = await signIn(server, user.phone, PASSWORD);
    expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, fresh.access.token), 'E_1');

    // Without prompt=login the same: the existing grant is not widened without the user's yes.
    const again = await authorize(config, browser, CALLBACK, { scope: 'openid profile phone' });
    expect(again.landed.startsWith(CALLBACK)).toBe(false);
    const againUid = interactionOf(again.landed);
    expect((await interactionCall<Shown>(server, browser, 'GET', againUid)).body.consent).toBe(true);
    expectError(await interactionCall(server, browser, 'POST', `${againUid}/complete`, {}, user.token), 'E_1');

    // What was granted still signs in without a question, and still only with the granted scopes.
    const same = await authorize(config, browser, CALLBACK, { scope: 'openid profile' });
    expect(same.landed.startsWith(CALLBACK)).toBe(true);
    const sameTokens = await oidc.authorizationCodeGrant(config, new URL(same.landed), same.checks);
    expect(sameTokens.scope?.split(' ').sort()).toEqual(['openid', 'profile']);
    const info = await oidc.fetchUserInfo(config, sameTokens.access_token, String(user.userId));
    expect(info.phone_number).toBeUndefined();
    expect(info.email).toBeUndefined();

    // Consent to more widens the grant.
    const wider = await authorize(config, browser, CALLBACK, { scope: 'openid profile phone' });
    const callback = await complete(server, browser, wider.landed, user.token, CALLBACK, { consent: true });
    const widerTokens = await oidc.authorizationCodeGrant(config, new URL(callback), wider.checks);
    expect(widerTokens.scope?.split(' ').sort()).toEqual(['openid', 'phone', 'profile']);
  });
});
