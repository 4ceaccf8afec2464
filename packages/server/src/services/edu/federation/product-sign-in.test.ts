/**
 * A school's sign-in made for a first-party product's sign-in (the web client names the interaction
 * its tab waits on in the return address, `/?school=<code>&interaction=<uid>`) completes it on the way
 * back: the school's return sends the browser straight on to the product, which gets a code for the
 * person the school named, with no page of the web client between. Whatever would stop the web
 * client's return stops this too, and the browser lands on the return address as before (without the
 * interaction, which the tab keeps): agreements
 * the account must sign first, a third-party application's consent, an interaction of another browser.
 * Driven through a CAS connector (the test CAS server); the other kinds return through the same step.
 */
import { INTERACTION_PARAM, routes } from '@edupass/protocol';
import { signAgreementsInEffect } from '@edupass/test-kit/accounts';
import { type CasPerson, type CasServer, startCasServer } from '@edupass/test-kit/cas-server';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import {
  authorize,
  type Browser,
  complete,
  discover,
  interactionCall,
  interactionOf,
} from '@edupass/test-kit/oidc-flow';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const { server, adoptOwnUrl } = useIssuerServer();
const CALLBACK = 'https://courses.example.com/callback';
const QUIZ_CALLBACK = 'https://quiz.example.com/callback';
const CODE = 'yizhong';

let cas: CasServer;
let courses: oidc.Configuration;
let quiz: string;

beforeAll(async () => {
  adoptOwnUrl();
  cas = await startCasServer();
  const call = client(server.url);
  const edu = eduSteps(server, call);
  const schoolId = await edu.addSchool('第一中学');
  edu.ok(
    await call(
      'POST',
      pathOf(routes.addSchoolConnector.path, { id: schoolId }),
      { code: CODE, kind: 'cas', name: '第一中学统一身份认证', settings: { server_url: cas.url, version: '3.0' } },
      { token: await edu.operatorToken() },
    ),
  );
  const made = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] });
  courses = await discover(server, made.application.client_id, String(made.client_secret));
  quiz = (
    await registerApp(server, { name: 'Quiz', redirect_uris: [QUIZ_CALLBACK], first_party: false, confidential: false })
  ).application.client_id;
});
afterAll(() => cas?.close());

let people = 0;
const teacher = (): CasPerson => ({
  user: `T2026${String(++people).padStart(4, '0')}`,
  attributes: { displayName: ['王老师'], affiliation: ['staff'] },
});

/** The web client's return address for a school sign-in, naming `uid` when given. */
const returnAddress = (uid?: string) => {
  const back = new URL('/', server.url);
  back.searchParams.set('school', CODE);
  if (uid !== undefined) back.searchParams.set(INTERACTION_PARAM, uid);
  return back.href;
};

/**
 * `browser` signs in at the school as `person` (the start, the CAS server's page, the return) with
 * `back` as the return address; answers where the return sent it and the session's token.
 */
const schoolSignIn = async (browser: Browser, person: CasPerson, back: string) => {
  const start = new URL(routes.startSchoolSignIn.path.replace(':code', CODE), server.url);
  start.searchParams.set('redirect', back);
  const loginPage = (await browser.request(start.href)).location ?? '';
  expect(loginPage.startsWith(`${cas.url}/login?service=`)).toBe(true);
  cas.signInAs(person);
  const casAnswer = await fetch(loginPage, { redirect: 'manual' });
  const ticketed = casAnswer.headers.get('location') ?? '';
  const returned = await browser.request(ticketed);
  expect(returned.status).toBe(302);
  const token = browser.cookies.get('authorization');
  expect(token).toBeTypeOf('string');
  return { location: String(returned.location), token: String(token) };
};

/** A person the school names who has signed in once and accepted the agreements (no gate left). */
const knownPerson = async () => {
  const person = teacher();
  const first = await schoolSignIn(cookieBrowser(), person, returnAddress());
  await signAgreementsInEffect(server, first.token);
  return person;
};

describe("a school's sign-in naming the product sign-in its browser waits on", () => {
  it('goes from the school straight on to a first-party product, with a code for the person the school named', async () => {
    const person = await knownPerson();
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(courses, browser, CALLBACK);
    const uid = interactionOf(landed);
    const { location, token } = await schoolSignIn(browser, person, returnAddress(uid));
    // Not the web client's page: the provider's resume of this interaction.
    expect(location).toBe(`${server.url}/oidc/auth/${uid}`);
    const back = await browser.follow(location, (next) => next.startsWith(CALLBACK));
    const tokens = await oidc.authorizationCodeGrant(courses, new URL(back), checks);
    const profile = await client(server.url)<{ id: number }>('GET', routes.getProfile.path, undefined, { token });
    expect(tokens.claims()?.sub).toBe(String(profile.body.id));
  });

  it('lands on the return address while agreements are left to sign; the return then completes it', async () => {
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(courses, browser, CALLBACK);
    const uid = interactionOf(landed);
    const { location, token } = await schoolSignIn(browser, teacher(), returnAddress(uid));
    expect(location).toBe(returnAddress());
    // The web client's part after the gate: the interaction was left as it was.
    await signAgreementsInEffect(server, token);
    const back = await complete(server, browser, landed, token, CALLBACK);
    expect((await oidc.authorizationCodeGrant(courses, new URL(back), checks)).claims()?.sub).toBeTypeOf('string');
  });

  it("leaves a third-party application's consent to the screen", async () => {
    const person = await knownPerson();
    const browser = cookieBrowser();
    const { landed } = await authorize(await discover(server, quiz), browser, QUIZ_CALLBACK);
    const uid = interactionOf(landed);
    const { location, token } = await schoolSignIn(browser, person, returnAddress(uid));
    expect(location).toBe(returnAddress());
    const details = await interactionCall<{ consent: boolean }>(server, browser, 'GET', uid, undefined, token);
    expect(details.body.consent).toBe(true);
  });

  it("does not complete another browser's interaction: that browser resumes to no code", async () => {
    const person = await knownPerson();
    const other = cookieBrowser();
    const uid = interactionOf((await authorize(courses, other, CALLBACK)).landed);
    const { location } = await schoolSignIn(cookieBrowser(), person, returnAddress(uid));
    expect(location).toBe(returnAddress());
    const resumed = await other.request(`${server.url}/oidc/auth/${uid}`);
    expect(resumed.location ?? '').not.toContain('code=');
  });

  it('lands on the return address when the interaction named is no more', async () => {
    const person = await knownPerson();
    const { location } = await schoolSignIn(cookieBrowser(), person, returnAddress('gone-interaction'));
    expect(location).toBe(returnAddress());
  });
});
