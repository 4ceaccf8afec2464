/**
 * An interaction belongs to the browser that started the authorization: a signed-in victim who opens
 * an attacker's `/sign-in?interaction=<uid>` can neither complete nor deny it (nor read it), and the
 * attacker's browser, resuming the authorization, gets no code for the victim's account.
 */
import { type Account, expectError, signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover, interactionCall, interactionOf } from '@edupass/test-kit/oidc-flow';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, adoptOwnUrl } = useIssuerServer();
const CALLBACK = 'https://courses.example.com/callback';
const THIRD_PARTY_CALLBACK = 'https://quiz.example.com/callback';

let victim: Account;
let app: { id: string; secret: string };
let thirdParty: string;

beforeAll(async () => {
  adoptOwnUrl();
  victim = await signUpAgreed(server);
  const made = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] });
  app = { id: made.application.client_id, secret: String(made.client_secret) };
  thirdParty = (
    await registerApp(server, {
      name: 'Quiz',
      redirect_uris: [THIRD_PARTY_CALLBACK],
      first_party: false,
      confidential: false,
    })
  ).application.client_id;
});

/** Where the attacker's browser lands when it resumes the authorization after the victim's attempt. */
const attackerResumes = async (attacker: ReturnType<typeof cookieBrowser>, uid: string, callback: string) => {
  const resumed = await attacker.request(`${server.url}/oidc/auth/${uid}`);
  const location = resumed.location ?? '';
  return {
    status: resumed.status,
    location,
    code: location.startsWith(callback) ? new URL(location).searchParams.get('code') : null,
  };
};

describe('an interaction started in another browser', () => {
  it('cannot be completed by a signed-in victim: refused, and the attacker gets no code', async () => {
    const attacker = cookieBrowser();
    const victimBrowser = cookieBrowser();
    const config = await discover(server, app.id, app.secret);
    const { landed } = await authorize(config, attacker, CALLBACK);
    const uid = interactionOf(landed);

    expectError(await interactionCall(server, victimBrowser, 'GET', uid, undefined, victim.token), 'E_2');
    expectError(await interactionCall(server, victimBrowser, 'POST', `${uid}/complete`, {}, victim.token), 'E_2');
    expectError(
      await interactionCall(server, victimBrowser, 'POST', `${uid}/complete`, { consent: true }, victim.token),
      'E_2',
    );
    const resumed = await attackerResumes(attacker, uid, CALLBACK);
    expect(resumed.code).toBeNull();
    expect(resumed.location.startsWith(CALLBACK)).toBe(false);
  });

  it('cannot be denied by another browser, and denying needs a signed-in user', async () => {
    const attacker = cookieBrowser();
    const config = await discover(server, thirdParty);
    const { landed } = await authorize(config, attacker, THIRD_PARTY_CALLBACK);
    const uid = interactionOf(landed);
    expectError(await interactionCall(server, cookieBrowser(), 'POST', `${uid}/deny`, {}, victim.token), 'E_2');
    expectError(await interactionCall(server, attacker, 'POST', `${uid}/deny`, {}), 'E_0');
    // Still pending: the browser that started it is sent back to the sign-in, not to the application.
    const resumed = await attackerResumes(attacker, uid, THIRD_PARTY_CALLBACK);
    expect(resumed.location.startsWith(THIRD_PARTY_CALLBACK)).toBe(false);
  });

  it('an interaction cookie of another interaction does not open this one', async () => {
    const attacker = cookieBrowser();
    const victimBrowser = cookieBrowser();
    const config = await discover(server, app.id, app.secret);
    const attackers = await authorize(config, attacker, CALLBACK);
    // The victim's browser has an interaction of its own (it started a sign-in at the application).
    await authorize(config, victimBrowser, CALLBACK);
    const uid = interactionOf(attackers.landed);
    expectError(await interactionCall(server, victimBrowser, 'POST', `${uid}/complete`, {}, victim.token), 'E_2');
    expect((await attackerResumes(attacker, uid, CALLBACK)).code).toBeNull();
  });

  it("a forged interaction cookie naming another browser's interaction opens nothing", async () => {
    const attacker = cookieBrowser();
    const victimBrowser = cookieBrowser();
    const config = await discover(server, app.id, app.secret);
    const uid = interactionOf((await authorize(config, attacker, CALLBACK)).landed);
    await authorize(config, victimBrowser, CALLBACK);
    // The provider's signed interaction cookie and its signature (oidc/cookie-keys.ts signs them).
    const name = [...victimBrowser.cookies.keys()].find(
      (cookie) => cookie.startsWith('_interaction') && !cookie.endsWith('.sig'),
    );
    if (name === undefined) throw new Error(`no interaction cookie among ${[...victimBrowser.cookies.keys()]}`);
    const ownSignature = victimBrowser.cookies.get(`${name}.sig`) ?? '';
    expect(ownSignature).not.toBe('');
    // The attacker's uid under the victim's signature, under a made-up one, and with none.
    for (const signature of [ownSignature, 'AAAAAAAAAAAAAAAAAAAAAAAAAAA', undefined]) {
      victimBrowser.cookies.set(name, uid);
      if (signature === undefined) victimBrowser.cookies.delete(`${name}.sig`);
      else victimBrowser.cookies.set(`${name}.sig`, signature);
      expectError(await interactionCall(server, victimBrowser, 'GET', uid, undefined, victim.token), 'E_2');
      expectError(await interactionCall(server, victimBrowser, 'POST', `${uid}/complete`, {}, victim.token), 'E_2');
    }
    expect((await attackerResumes(attacker, uid, CALLBACK)).code).toBeNull();
  });

  it('is completed in the browser that started it', async () => {
    const browser = cookieBrowser();
    const config = await discover(server, app.id, app.secret);
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    const shown = await interactionCall<{ app: { name: string } }>(server, browser, 'GET', interactionOf(landed));
    expect(shown.body.app.name).toBe('Courses');
    const callback = await complete(server, browser, landed, victim.token, CALLBACK);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), checks);
    expect(tokens.claims()?.sub).toBe(String(victim.userId));
  });
});
