/**
 * Every screen in both languages at 375 px and 1280 px, in the light and the dark theme: axe finds no
 * serious or critical violation, no checkbox or radio sits alone with its words under it, and a
 * screenshot of each is kept under e2e/screenshots/ for people to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ACCOUNTS_BASE } from '@edupass/protocol';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { clearCaptchaPolicy, insertAgreement, setCaptchaPolicy } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations, type Violation } from './support/axe.ts';
import { openPage } from './support/pages.ts';
import { strandedChoices } from './support/touch.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
const PASSWORD = 'Heron2718q';

let app: AppUnderTest;
let agreementVersion = 10;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

/** A user made over the API, so each run of screens starts signed out with an account ready. */
const registerUser = async (phone: string) => {
  const post = (path: string, body: object) =>
    fetch(`${app.server.url}${ACCOUNTS_BASE}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pid: 'edupass', ...body }),
    });
  expect((await post('captcha/register/phone/with-agreement', { phone_number: phone })).status).toBe(204);
  const code = await app.server.lastCode(phone);
  const agreements = (await (await fetch(`${app.server.url}${ACCOUNTS_BASE}/agreements`)).json()) as { id: number }[];
  const answer = await post('register/phone/with-agreement', {
    phone_number: phone,
    captcha: code,
    password: PASSWORD,
    agreement_ids: agreements.map((a) => a.id),
  });
  expect(answer.status).toBe(200);
};

/** An in-app navigation (the server serves the client at `/` only). */
const go = (page: Page, path: string) =>
  page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);

const heading = (page: Page) => page.locator('main h1').first().waitFor();

const VIEWPORTS = [
  { name: '375', width: 375, height: 812 },
  { name: '1280', width: 1280, height: 800 },
] as const;
const LOCALES = ['zh-CN', 'en'] as const;

const CASES = LOCALES.flatMap((locale) => VIEWPORTS.map((viewport) => ({ locale, viewport })));

describe('every screen', () => {
  test.each(CASES.map((c, index) => ({ ...c, index })))(
    '$locale at $viewport.width px, light and dark: no serious or critical axe violations; screenshots kept',
    async ({ locale, viewport, index }) => {
      const phone = `1580000${String(Date.now() % 1000).padStart(3, '0')}${index}`;
      await registerUser(phone);
      const tab = await openPage(app.browser, {
        locale,
        width: viewport.width,
        height: viewport.height,
        consent: 'unset',
      });
      const { page } = tab;
      const found: (Violation & { screen: string })[] = [];
      const stranded: string[] = [];
      // Each screen in the light theme and the dark one (the system's, prefers-color-scheme).
      const check = async (screen: string) => {
        await page.evaluate(() => document.fonts.ready);
        stranded.push(...(await strandedChoices(page)).map((choice) => `${screen}: ${choice}`));
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          for (const v of await seriousViolations(page)) found.push({ ...v, screen: `${screen} (${scheme})` });
          const suffix = scheme === 'dark' ? '.dark' : '';
          await keepScreenshot(page, {
            path: join(SHOTS, `${screen}.${locale}.${viewport.name}${suffix}.png`),
            fullPage: true,
          });
        }
        await page.emulateMedia({ colorScheme: 'light' });
      };
      try {
        await page.goto(app.server.url);
        await heading(page);
        await page.locator('.consent').waitFor();
        await check('sign-in-with-consent-banner');
        await page.locator('.consent .button.secondary').click();
        await check('sign-in-sms');
        // The send button explains itself, then the inline errors of a submitted empty form.
        await page.locator('form button[type=submit]').click();
        await page.locator('.error-text').first().waitFor();
        await check('sign-in-sms-errors');
        // The slide puzzle in its overlay, where the rule service asks for it.
        await setCaptchaPolicy(app.server.app.ctx, 'edupass', 'silence', 'always');
        try {
          await page.locator('input[type="tel"]').fill('13912345678');
          await page.locator('.code-button').click();
          await page.locator('[role="slider"]:not([aria-disabled])').waitFor();
          await check('captcha-overlay');
          await page.keyboard.press('Escape');
          await page.locator('[data-edupass-captcha="mask"]').waitFor({ state: 'detached' });
          // The refused send is told under the code button.
          await page.locator('.code-error').waitFor();
          await check('captcha-closed');
        } finally {
          await clearCaptchaPolicy(app.server.app.ctx, 'edupass', 'silence');
        }
        await page.getByRole('tab').nth(1).click();
        await check('sign-in-password');
        await page.getByRole('tab').nth(2).click();
        await page.locator('input[type="email"]').waitFor();
        await check('sign-in-email');

        // A route chunk that cannot load (before the sign-up chunk was ever loaded).
        await page.route('**/assets/sign-up-*.js', (route) => route.abort('connectionrefused'));
        await page.locator('a[href="/sign-up"]').click();
        await page.locator('.chunk-failed').waitFor();
        await check('chunk-failed');
        await page.unroute('**/assets/sign-up-*.js');
        await page.locator('.chunk-failed button.primary').click();
        await page.locator('input[autocomplete="new-password"]').waitFor();
        await check('sign-up-phone');
        await page.getByRole('tab').nth(1).click();
        await page.locator('input[type="email"]').waitFor();
        await check('sign-up-email');

        await go(page, '/reset-password');
        await page.locator('input[type="tel"]').waitFor();
        await check('reset-password');
        await page.getByRole('tab').nth(1).click();
        await page.locator('input[type="email"]').waitFor();
        await check('reset-password-email');

        await go(page, '/no-such-page');
        await heading(page);
        await check('not-found');

        await go(page, '/legal/terms?version=1');
        await page.locator('.agreement-text').waitFor();
        await check('legal');
        await go(page, '/sign-up');
        await page.locator('.agree a').first().click();
        await page.locator('dialog .agreement-text').waitFor();
        await check('agreement-sheet');
        await page.keyboard.press('Escape');

        await go(page, '/?oauth=wechat');
        await page.locator('.form-error').waitFor();
        await check('oauth-return-without-code');

        // Signed in.
        await go(page, '/');
        await page.getByRole('tab').nth(1).click();
        await page.locator('input[autocomplete="username"]').fill(phone);
        await page.locator('input[autocomplete="current-password"]').fill(PASSWORD);
        await page.locator('form button[type=submit]').click();
        await page.locator('form.profile-form').waitFor();
        await check('account-profile');
        await page.locator('form.profile-form input').first().fill('bad name!');
        await page.locator('form.profile-form .error-text').waitFor();
        await check('account-profile-invalid');

        await go(page, '/account/security');
        await page.locator('[data-row="two-step"] .security-row-state:not(:empty)').waitFor();
        await check('account-security');
        await go(page, '/account/security/username');
        await page.locator('#username-title').waitFor();
        await check('account-security-username');

        await go(page, '/account/connections');
        await page.locator('.connection button:not([disabled])').first().waitFor();
        await check('account-connections');

        await go(page, '/account/privacy');
        await page.locator('.facts dd', { hasText: '****' }).waitFor();
        await check('account-privacy');

        const now = Date.now();
        await insertAgreement(app.server.app.ctx.db, {
          code: 'privacy',
          title: '隐私政策 / Privacy Policy',
          version: ++agreementVersion,
          url: `/legal/privacy?version=${agreementVersion}`,
          content: 'A newer privacy policy.',
          effective_at: now - 1000,
          created_at: now,
        });
        await page.goto(app.server.url);
        await page.locator('.agreement-list li').first().waitFor();
        await check('agreements-gate');
        await page.locator('main .button.primary').click();
        await page.locator('form.profile-form').waitFor();
      } finally {
        await tab.close();
      }
      expect(found, JSON.stringify(found, null, 2)).toEqual([]);
      expect(stranded).toEqual([]);
      expect(tab.errors).toEqual([]);
    },
    120_000,
  );
});
