/**
 * Nobody stays stranded on the account centre: an allow-listed `redirect` of a registered application
 * is followed after every way of signing in (password, phone sign-up, e-mail sign-up, a QQ round trip,
 * the second step; SMS, WeChat and the agreements gate are in sso.test.ts), and a page of the account
 * centre opened signed out (a deep link) is where the sign-in lands. The application's name and logo
 * head the first screen, in both languages, on a phone and a desktop.
 */

import { A, client, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { steppingClock } from '@edupass/test-kit/rfc6238';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  answerBirthMonth,
  inputLabelled,
  newCodeFor,
  newUserByDevProvider,
  openSecurityRow,
  phoneNumbers,
  signInByPassword,
  signInBySms,
  signUpByPhone,
} from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { type LandingSite, startLandingSite } from './support/landing-site.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, inPage, type TestPage } from './support/pages.ts';

/** The server's clock, moved a step on before each authenticator code so none is a replay. */
const { now, freshCode } = steppingClock();
const PASSWORD = 'Heron2718q';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><rect width="48" height="48" rx="8" fill="#2563eb"/></svg>';
const nextPhone = phoneNumbers('1572');

let app: AppUnderTest;
let courses: LandingSite;
let logo: string;

beforeAll(async () => {
  [app, courses] = await Promise.all([startApp({}, { now }), startLandingSite('Courses')]);
  // Same-origin, so the page's image policy lets it load (a registered logo is any https address).
  logo = `${app.server.url}/courses-logo.png`;
  const operator = (await signInOperator(app.server)).token;
  await registerApp(
    app.server,
    { name: 'Courses', logo_url: logo, redirect_uris: [`${courses.origin}/callback`] },
    operator,
  );
});
afterAll(async () => {
  await courses?.close();
  await app?.close();
});

/** An account with a password that has signed the agreements in effect (no agreements gate on sign-in). */
const accountWithPassword = async () => {
  const agreements = await client(app.server.url)<{ id: number }[]>('GET', `${A}/agreements`);
  return signUp(
    app.server,
    nextPhone(),
    PASSWORD,
    agreements.body.map((agreement) => agreement.id),
  );
};

const signInFrom = (to: string) => `${app.server.url}/sign-in?redirect=${encodeURIComponent(`${courses.origin}${to}`)}`;

const landedOn = async (tab: TestPage, path: string) => {
  await tab.page.waitForURL(`${courses.origin}${path}`, { timeout: 20_000 }).catch(async () => {
    throw new Error(`still at ${tab.page.url()}: ${(await tab.page.locator('body').innerText()).slice(0, 300)}`);
  });
  await expectScreen(tab.page, `Courses ${path}`);
};

for (const { locale, text } of LOCALES) {
  for (const viewport of VIEWPORTS) {
    test(`the first screen names the application with its logo (${locale}, ${viewport.name})`, async () => {
      await inPage(app.browser, { locale, width: viewport.width, height: viewport.height }, async (tab) => {
        const { page } = tab;
        await page.route(logo, (route) =>
          route.fulfill({ contentType: 'image/svg+xml', body: LOGO_SVG, headers: { 'cache-control': 'no-store' } }),
        );
        await page.goto(signInFrom('/welcome'));
        await expectScreen(page, text['signIn.titleFor'].replace('{app}', 'Courses'));
        const shown = page.locator('.return-app img');
        expect(await shown.getAttribute('src')).toBe(logo);
        await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
        // Nothing wider than the screen on a phone; nothing an assistive technology trips on.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        expect(await seriousViolations(page)).toEqual([]);
        await keepScreenshot(page, {
          path: `${import.meta.dirname}/screenshots/sign-in-to-app.${locale}.${viewport.width}.png`,
        });
        // Without an application, the plain heading.
        await page.goto(`${app.server.url}/sign-in`);
        await page.getByRole('heading', { level: 1, name: text['signIn.title'], exact: true }).waitFor();
        expect(await page.locator('.return-app').count()).toBe(0);
      });
    });
  }
}

test('password sign-in goes back to the application', async () => {
  const account = await accountWithPassword();
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(signInFrom('/lesson/1'));
    await expectScreen(page, 'Sign in to Courses');
    await signInByPassword(tab, account.phone, PASSWORD);
    await landedOn(tab, '/lesson/1');
    expect(tab.errors).toEqual([]);
  });
});

test('phone sign-up goes back to the application', async () => {
  await inPage(app.browser, { locale: 'zh-CN', width: 390, height: 844 }, async (tab) => {
    const { page } = tab;
    const phone = nextPhone();
    await page.goto(signInFrom('/welcome'));
    await expectScreen(page, '登录 Courses');
    await page.getByRole('link', { name: '注册' }).click();
    await inputLabelled(tab, '手机号').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await inputLabelled(tab, '验证码').fill(await newCodeFor(app, phone));
    await inputLabelled(tab, '密码').fill(PASSWORD);
    await answerBirthMonth(page, { zh: true });
    await page.getByLabel('我已阅读并同意').check();
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await landedOn(tab, '/welcome');
  });
});

test('e-mail sign-up goes back to the application', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    const email = `back${Date.now().toString(36)}@example.com`;
    await page.goto(signInFrom('/welcome'));
    await page.getByRole('link', { name: 'Sign up' }).click();
    await expectScreen(page, 'Create an account');
    await page.getByRole('tab', { name: 'E-mail' }).click();
    await inputLabelled(tab, 'E-mail address').fill(email);
    await page.getByRole('button', { name: 'Get code' }).click();
    await inputLabelled(tab, 'Verification code').fill(await newCodeFor(app, email));
    await inputLabelled(tab, 'Password').fill(PASSWORD);
    await inputLabelled(tab, 'Confirm password').fill(PASSWORD);
    await answerBirthMonth(page);
    await page.getByLabel('I have read and agree to').check();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await landedOn(tab, '/welcome');
  });
});

test('a QQ round trip through the development provider goes back to the application', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(signInFrom('/from-qq'));
    await expectScreen(page, 'Sign in to Courses');
    await newUserByDevProvider(tab, 'qq', `qq${Date.now().toString(36).slice(-5)}`);
    await landedOn(tab, '/from-qq');
  });
});

test('the second step (an authenticator code) comes first, then the application', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    const phone = nextPhone();
    await signUpByPhone(app, tab, phone, PASSWORD);
    const section = await openSecurityRow(page, 'Two-step verification');
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await section.locator('code.secret').innerText()).trim();
    await section.getByLabel('Code from the app').fill(freshCode(secret));
    await section.getByRole('button', { name: 'Confirm' }).click();
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectScreen(page, 'Sign in');

    await page.goto(signInFrom('/after-two-steps'));
    await signInByPassword(tab, phone, PASSWORD);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await inputLabelled(tab, 'Code').fill(freshCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await landedOn(tab, '/after-two-steps');
  });
});

test('a page of the account centre opened signed out is where the sign-in lands (en, desktop)', async () => {
  const other = await accountWithPassword();
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    const phone = nextPhone();
    await page.goto(`${app.server.url}/account/security`);
    await signInBySms(app, tab, phone);
    await expectScreen(page, 'Sign-in & security');
    expect(new URL(page.url()).pathname).toBe('/account/security');
    // Used once: the next sign-in from the sign-in screen lands on the account centre.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectScreen(page, 'Sign in');
    await page.goto(`${app.server.url}/sign-in`);
    await signInByPassword(tab, other.phone, PASSWORD);
    await expectScreen(page, 'Profile');
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(tab.errors).toEqual([]);
  });
});

test('a deep link survives the password sign-in in Chinese on a phone, query included', async () => {
  const account = await accountWithPassword();
  await inPage(app.browser, { locale: 'zh-CN', width: 390, height: 844 }, async (tab) => {
    const { page } = tab;
    await page.goto(`${app.server.url}/account/connections?from=mail`);
    await expectScreen(page, '登录');
    await page.getByRole('tab', { name: '密码登录' }).click();
    await inputLabelled(tab, '手机号、用户名或邮箱').fill(account.phone);
    await inputLabelled(tab, '密码').fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL(`${app.server.url}/account/connections?from=mail`, { timeout: 20_000 });
    await expectScreen(page, '微信和 QQ');
  });
});

test('the return check meeting a server out of reach keeps the way back, and Try again goes there', async () => {
  const account = await accountWithPassword();
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    const check = (url: URL) => url.pathname.endsWith('/identity/return');
    await page.goto(signInFrom('/kept'));
    await expectScreen(page, 'Sign in to Courses');
    await page.route(check, (route) => route.abort('connectionrefused'));
    await signInByPassword(tab, account.phone, PASSWORD);
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'We could not reach the server. Check your connection and try again.' });
    await alert.waitFor({ timeout: 20_000 });
    await page.unroute(check);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await landedOn(tab, '/kept');
  });
});
