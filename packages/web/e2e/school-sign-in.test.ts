/**
 * "Sign in with your school" in Chromium on a phone, in both languages: a pupil finds the school by
 * name in the chooser, signs in at the school's CAS server (the protocol-exact test server) and lands
 * signed in; the choice is remembered; an application's OpenID Connect sign-in goes through it and
 * returns to the application with a code; signing out goes through the school's CAS server too; a
 * failed return says what happened and tries again. Every
 * screen on the way: 44 px targets and axe clean.
 */
import { routes } from '@edupass/protocol';
import { client, signInOperator } from '@edupass/test-kit/accounts';
import { type CasPerson, type CasServer, startCasServer } from '@edupass/test-kit/cas-server';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { withApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { type DemoApp, startDemoApp } from './support/demo-app.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage, shown } from './support/pages.ts';
import { smallTargets } from './support/touch.ts';

const app = withApp();
const PHONE = { width: 390, height: 844 };
let cas: CasServer;
let courses: DemoApp;
const CODE = 'yizhong';

beforeAll(async () => {
  [cas, courses] = await Promise.all([startCasServer(), startDemoApp('Courses')]);
  const call = client(app.server.url);
  const edu = eduSteps(app.server, call);
  const operator = await edu.operatorToken();
  // Two schools, so the search has something to leave out.
  for (const [school, code] of [
    ['第一中学', CODE],
    ['实验小学', 'shiyan'],
  ] as const) {
    const schoolId = await edu.addSchool(school);
    edu.ok(
      await call(
        'POST',
        pathOf(routes.addSchoolConnector.path, { id: schoolId }),
        {
          code,
          kind: 'cas',
          name: `${school}统一身份认证`,
          // The first school signs its pupils out of its CAS server when they sign out here.
          settings: { server_url: cas.url, version: '3.0', sign_out_at_school: code === CODE },
        },
        { token: operator },
      ),
    );
  }
  const registered = await registerApp(
    app.server,
    { name: 'Courses', redirect_uris: [`${courses.origin}/callback`] },
    (await signInOperator(app.server)).token,
  );
  await courses.connect(`${app.server.url}/oidc`, registered.application.client_id, registered.client_secret);
}, 120_000);

afterAll(async () => {
  await Promise.all([cas?.close(), courses?.close()]);
});

let pupils = 0;
const pupil = (): CasPerson => ({
  user: `S2026${String(++pupils).padStart(4, '0')}`,
  attributes: { displayName: ['李华'], affiliation: ['student'], class: ['高一(3)班'] },
});

/** The agreements a new account accepts before anything else (the gate). */
const acceptAgreements = async (page: Page, accept: string) => {
  await page.getByRole('button', { name: accept }).click();
};

/** 44 px targets and no serious axe finding on the screen shown. */
const measure = async (page: Page, where: string) => {
  expect(await smallTargets(page), where).toEqual([]);
  expect(await seriousViolations(page), where).toEqual([]);
};

for (const { locale, text } of LOCALES) {
  test(`${locale}: a pupil finds the school, signs in at its CAS server, lands signed in; the choice is remembered`, async () => {
    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      await page.goto(`${app.server.url}/`);
      await page.getByRole('link', { name: text['signIn.school'] }).click();
      await expectScreen(page, text['school.title']);
      const choices = page.locator('.school-choice');
      await expect.poll(() => choices.count(), { timeout: 30_000 }).toBe(2);
      await measure(page, '/school');
      await page.getByLabel(text['school.search']).fill('第一 中学');
      await expect.poll(() => choices.count(), { timeout: 30_000 }).toBe(1);
      await page.getByLabel(text['school.search']).fill('没有这所学校');
      await page.getByText(text['school.noMatch']).waitFor();
      await page.getByLabel(text['school.search']).fill('第一');
      cas.signInAs(pupil());
      await choices.filter({ hasText: '第一中学' }).click();
      await acceptAgreements(page, text['gate.submit']);
      await page.waitForURL(`${app.server.url}/account`);
      await page.locator('h1').waitFor();
      expect(cas.tickets.at(-1)?.service.startsWith(`${app.server.url}/edu/school-sign-in/${CODE}/cas?`)).toBe(true);
      // Signed in as this client's own tokens: a reload keeps the account page.
      await page.reload();
      await page.locator('h1').waitFor();
      expect(new URL(page.url()).pathname).toBe('/account');
      // The chooser puts the remembered school first, marked.
      await page.goto(`${app.server.url}/school`);
      await expect.poll(() => choices.count(), { timeout: 30_000 }).toBe(2);
      await expect.poll(() => choices.first().innerText()).toContain(text['school.last']);
      expect(await choices.first().innerText()).toContain('第一中学');
      expect(tab.errors).toEqual([]);
    });
  }, 180_000);

  test(`${locale}: an application's sign-in goes through the school and comes back to it with a code`, async () => {
    const person = pupil();
    /** The product's sign-in through the school; answers the pages of EduPass's own loaded on the way. */
    const throughTheSchool = async (page: Page, firstTime: boolean) => {
      await page.goto(courses.origin);
      await expectScreen(page, 'Courses: signed out');
      await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
      await page.getByRole('link', { name: text['signIn.school'] }).click();
      await expectScreen(page, text['school.title']);
      const ownPages: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (request.isNavigationRequest() && url.origin === app.server.url && !/^\/(oidc|edu)\//.test(url.pathname))
          ownPages.push(`${url.pathname}${url.search}`);
      });
      cas.signInAs(person);
      await page.locator('.school-choice').filter({ hasText: '第一中学' }).click();
      // A new account accepts the agreements first; the return to the application resumes after.
      if (firstTime) await acceptAgreements(page, text['gate.submit']);
      await expectScreen(page, 'Courses: signed in').catch(async () => {
        throw new Error(`still at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 1200)}`);
      });
      expect(new URL(page.url()).origin).toBe(courses.origin);
      return ownPages;
    };
    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      // The return address named the product's sign-in, which the server could not complete yet.
      const pages = await throughTheSchool(tab.page, true);
      expect(pages).toEqual(['/?school=yizhong']);
      expect(tab.errors).toEqual([]);
    });
    // The next time, on another device: from the school's page straight on to the application, with no
    // page of EduPass's between. A page of EduPass opened afterwards in that tab shows what it shows,
    // also once the account centre, opened in another tab, has taken the session the sign-in left: the
    // product's sign-in this tab waited on is found done, and nothing is said of it.
    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      expect(await throughTheSchool(page, false)).toEqual([]);
      await page.goto(`${app.server.url}/legal/privacy`);
      const heading = await page.locator('h1').innerText();
      const completion = page.waitForResponse(
        (answer) => answer.request().method() === 'POST' && answer.url().endsWith('/complete'),
        { timeout: 60_000 },
      );
      // Should a step below fail first, the page closes under the wait: that failure is the test's.
      completion.catch(() => undefined);
      const other = await page.context().newPage();
      await other.goto(`${app.server.url}/account`);
      await other.getByRole('button', { name: text['account.signOut'] }).waitFor();
      expect(new URL(other.url()).pathname).toBe('/account');
      // Signed in here too now: the return this tab kept is tried, and found completed by the server.
      expect((await completion).status()).toBe(404);
      await expect.poll(() => page.locator('h1').innerText(), { timeout: 30_000 }).toBe(heading);
      expect(await page.getByText(text['return.notThisBrowser']).count()).toBe(0);
      expect(tab.errors).toEqual([]);
    });
  }, 240_000);

  test(`${locale}: signing out goes through the school's CAS server and back to the sign-in screen`, async () => {
    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      await page.goto(`${app.server.url}/school`);
      cas.signInAs(pupil());
      await page.locator('.school-choice').filter({ hasText: '第一中学' }).click();
      await acceptAgreements(page, text['gate.submit']);
      await page.waitForURL(`${app.server.url}/account`);
      const signedOut = `${app.server.url}/?notice=signed-out`;
      const before = cas.logouts.length;
      await page.getByRole('button', { name: text['account.signOut'] }).click();
      // Three calls (the school's sign-out address, the sign-out, the CAS server's logout) and two
      // redirects: on a loaded machine the screens' 30 s is not enough for all of them. On time-out
      // the error says what the page showed and what was refused.
      await shown(page, page.getByText(text['signIn.signedOut']), 90_000);
      expect(page.url()).toBe(signedOut);
      expect(cas.logouts.length).toBe(before + 1);
      expect(cas.logouts.at(-1)?.get('service')).toBe(signedOut);
      // Signed out here too: the account page asks for a sign-in.
      await page.goto(`${app.server.url}/account`);
      await page.waitForURL((url) => url.pathname !== '/account');
      // When the school's system does not confirm, the sign-in screen says what to do.
      await page.goto(`${app.server.url}/?notice=school-sign-out-failed`);
      await page.getByText(text['signIn.schoolSignOutFailed']).waitFor();
      await measure(page, '/?notice=school-sign-out-failed');
      expect(tab.errors).toEqual([]);
    });
  }, 180_000);

  test(`${locale}: a failed school sign-in says what happened, and trying again signs in`, async () => {
    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      for (const [error, key] of [
        ['expired', 'school.expired'],
        ['unavailable', 'school.unavailable'],
        ['refused', 'school.refused'],
      ] as const) {
        await page.goto(`${app.server.url}/?school=${CODE}&error=${error}`);
        await page.getByText(text[key]).waitFor();
      }
      await measure(page, '/?school&error');
      // A way out without the school: back to the other sign-in methods.
      await page.getByRole('link', { name: text['school.otherWay'] }).waitFor();
      cas.signInAs(pupil());
      await page.getByRole('button', { name: text['school.tryAgain'] }).click();
      await acceptAgreements(page, text['gate.submit']);
      await page.waitForURL(`${app.server.url}/account`);
      expect(tab.errors).toEqual([]);
    });
  }, 180_000);
}
