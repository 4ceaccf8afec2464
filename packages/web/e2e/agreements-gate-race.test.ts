/**
 * The agreements gate cannot be raced: with the answer to "what is left to sign" held back, a password
 * sign-in that should return to an application (OpenID Connect, or an allow-listed `?redirect=`) shows
 * the gate every time, never the application, and after accepting the return resumes. Twenty tries
 * each: the gate was once seen skipped in 3 of 12. Each try has a browser context of its own, and a few
 * run at once: a try mostly waits on its held-back answer, which the others' waits overlap.
 */

import { join } from 'node:path';
import { agreementIdsInEffect, nextPhone, PASSWORD, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { eachAtMost } from '@edupass/test-kit/parallel';
import { insertAgreement } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { signInByPassword } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { type DemoApp, startDemoApp } from './support/demo-app.ts';
import { expectScreen, inPage } from './support/pages.ts';

const TRIES = 20;
/**
 * Tries under way at once (each its own browser context and account): a try spends most of its time
 * waiting on its held-back answers, so ten overlap their waits in two rounds (four took five rounds,
 * and the file twice as long, for the same CPU).
 */
const AT_ONCE = 10;
/** How long the need-sign answer is held back: well past the time a sign-in takes to reach the return, even with other tries under way. */
const HELD_BACK_MS = 3000;

let app: AppUnderTest;
let courses: DemoApp;
/** Accounts that signed the agreements in effect before a new privacy version was published. */
const accounts: string[] = [];

beforeAll(async () => {
  [app, courses] = await Promise.all([startApp(), startDemoApp('Courses')]);
  const operator = (await signInOperator(app.server)).token;
  const made = await registerApp(
    app.server,
    {
      name: 'Courses',
      redirect_uris: [`${courses.origin}/callback`],
      post_logout_redirect_uris: [`${courses.origin}/`],
    },
    operator,
  );
  await courses.connect(`${app.server.url}/oidc`, made.application.client_id, made.client_secret);
  const signed = await agreementIdsInEffect(app.server);
  await eachAtMost(2 * TRIES, 8, async (i) => {
    accounts[i] = (await signUp(app.server, nextPhone(), PASSWORD, signed)).phone;
  });
  const now = Date.now();
  await insertAgreement(app.server.app.ctx.db, {
    code: 'privacy',
    title: '隐私政策 / Privacy Policy',
    version: 2,
    url: '/legal/privacy?version=2',
    content: 'Version 2 of the privacy policy.',
    effective_at: now - 1000,
    created_at: now,
  });
}, 120_000);

afterAll(async () => {
  await courses?.close();
  await app?.close();
});

/** Holds back every need-sign answer; records every page the tab opened on the application's origin. */
const raced = async (page: Page) => {
  await page.route('**/agreements/need-sign*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, HELD_BACK_MS));
    await route.continue().catch(() => undefined);
  });
  const reachedApp: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith(courses.origin)) reachedApp.push(frame.url());
  });
  return reachedApp;
};

const acceptAgreements = async (page: Page) => {
  await expectScreen(page, 'Updated agreements');
  await page.getByText('Privacy Policy').first().waitFor();
  await page.getByRole('button', { name: 'Accept and continue' }).click();
};

test(`?redirect=: the gate comes first in ${TRIES} raced sign-ins, then the return resumes`, async () => {
  await eachAtMost(TRIES, AT_ONCE, async (i) => {
    await inPage(app.browser, { locale: 'en' }, async (tab) => {
      const { page } = tab;
      const reachedApp = await raced(page);
      await page.goto(`${app.server.url}/sign-in?redirect=${encodeURIComponent(`${courses.origin}/welcome`)}`);
      await expectScreen(page, 'Sign in to Courses');
      await signInByPassword(tab, accounts[i] ?? '', PASSWORD);
      await expectScreen(page, 'Updated agreements');
      expect(reachedApp, `try ${i + 1}`).toEqual([]);
      await acceptAgreements(page);
      await page.waitForURL(`${courses.origin}/welcome`);
      expect(tab.errors).toEqual([]);
    });
  });
}, 600_000);

test(`OpenID Connect: the gate comes first in ${TRIES} raced sign-ins, then the application signs in`, async () => {
  await eachAtMost(TRIES, AT_ONCE, async (i) => {
    await inPage(app.browser, { locale: 'en' }, async (tab) => {
      const { page } = tab;
      await page.goto(courses.origin);
      await expectScreen(page, 'Courses: signed out');
      const reachedApp = await raced(page);
      await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
      await expectScreen(page, 'Sign in to Courses');
      await signInByPassword(tab, accounts[TRIES + i] ?? '', PASSWORD);
      await expectScreen(page, 'Updated agreements');
      expect(reachedApp, `try ${i + 1}`).toEqual([]);
      if (i === 0)
        await keepScreenshot(page, {
          path: join(import.meta.dirname, 'screenshots/agreements-gate-before-app.en.1280.png'),
        });
      await acceptAgreements(page);
      await expectScreen(page, 'Courses: signed in');
      expect(tab.errors).toEqual([]);
    });
  });
}, 600_000);
