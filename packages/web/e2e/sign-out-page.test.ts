/**
 * The sign-out page an application opens (RP-initiated logout, served by the provider) in Chromium,
 * on a phone: one language, the visitor's (the application's ui_locales, else the language chosen in
 * the web client, else the browser's), in the web client's look with 44 px buttons. "Sign out" signs
 * out of the application and EduPass; "Stay signed in" goes to the account; the "signed out" page
 * (no way back named by the application) offers to sign in again.
 */
import { join } from 'node:path';
import { signInOperator } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { phoneNumbers, signInBySms } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { type DemoApp, registerDemoApp, startDemoApp } from './support/demo-app.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

let app: AppUnderTest;
let courses: DemoApp;
const nextPhone = phoneNumbers('1582');
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);

const WORDS = {
  'zh-CN': {
    ask: '要退出登录吗？',
    signOut: '退出登录',
    stay: '不退出，回到我的账号',
    done: '已退出登录',
    again: '重新登录',
  },
  en: {
    ask: 'Sign out?',
    signOut: 'Sign out',
    stay: 'Stay signed in and go to my account',
    done: 'You have signed out',
    again: 'Sign in again',
  },
} as const;
type Locale = keyof typeof WORDS;

beforeAll(async () => {
  [app, courses] = await Promise.all([startApp(), startDemoApp('Courses')]);
  const operator = (await signInOperator(app.server)).token;
  await registerDemoApp(app.server, courses, operator, { name: 'Courses' });
}, 120_000);
afterAll(async () => {
  await courses?.close();
  await app?.close();
});

/** Signed in to Courses through EduPass (the SMS steps are in English). */
const signedInToCourses = async (browserLanguage: Locale) => {
  const tab = await openPage(app.browser, { locale: 'en', browserLanguage, ...PHONE });
  const { page } = tab;
  await page.goto(courses.origin);
  await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
  await signInBySms(app, tab, nextPhone());
  await expectScreen(page, 'Courses: signed in');
  return tab;
};

/** The page is in `locale` alone: its lang, and not a word of the other language. */
const expectOneLanguage = async (page: Page, locale: Locale) => {
  expect(await page.getAttribute('html', 'lang')).toBe(locale);
  const body = await page.locator('body').innerText();
  if (locale === 'en') expect(body).not.toMatch(/[\u4e00-\u9fff]/);
  else expect(body).not.toMatch(/Sign out|signed/i);
};

for (const locale of ['zh-CN', 'en'] as const) {
  test(`${locale}: the sign-out question in the browser's language, styled; Sign out ends the app's and EduPass's sessions`, async () => {
    const tab = await signedInToCourses(locale);
    const { page } = tab;
    const words = WORDS[locale];
    try {
      await page.getByRole('link', { name: 'Sign out' }).click();
      await expectScreen(page, words.ask);
      await expectOneLanguage(page, locale);
      // The web client's look: its blue button, and touch targets of 44 px (expectCleanScreen measures them).
      const signOut = page.getByRole('button', { name: words.signOut, exact: true });
      expect(await signOut.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(29, 78, 216)');
      await expectCleanScreen(page, 'sign-out question');
      await keepScreenshot(page, { path: shot(`sign-out-page.${locale}.390.png`), fullPage: true });

      await signOut.click();
      await expectScreen(page, 'Courses: signed out');
      await page.goto(`${app.server.url}/account`);
      await expectScreen(page, 'Sign in');
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}

test('ui_locales and the language chosen in the web client win over the browser; "stay" keeps the session; "signed out" offers a new sign-in', async () => {
  const tab = await signedInToCourses('zh-CN');
  const { page } = tab;
  const endSession = `${app.server.url}/oidc/session/end`;
  try {
    // The application asks for English: English, though the browser prefers Chinese.
    await page.goto(`${endSession}?ui_locales=en`);
    await expectScreen(page, WORDS.en.ask);
    await expectOneLanguage(page, 'en');
    // The way back: still signed in, on the account.
    await page.getByRole('link', { name: WORDS.en.stay }).click();
    await expectScreen(page, 'Profile');

    // Chosen in the web client's header (remembered for the server as a cookie): English too.
    await page.evaluate(() => localStorage.setItem('edupass.locale', 'zh-CN'));
    await page.reload();
    await expectScreen(page, '个人资料');
    await page.getByRole('button', { name: /English/ }).click();
    await expectScreen(page, 'Profile');
    await page.goto(endSession);
    await expectScreen(page, WORDS.en.ask);
    await page.getByRole('button', { name: WORDS.en.signOut, exact: true }).click();
    // No application named a way back: the "signed out" page, and a new sign-in from it.
    await expectScreen(page, WORDS.en.done);
    await expectOneLanguage(page, 'en');
    await keepScreenshot(page, { path: shot('signed-out-page.en.390.png'), fullPage: true });
    await page.getByRole('link', { name: WORDS.en.again }).click();
    await expectScreen(page, 'Sign in');
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});
