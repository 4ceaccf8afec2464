/**
 * "Sign-in & security" on a phone (390×844), in both languages: a list of rows (what, its state, one
 * action) with every form closed; a row opens its one form on a page of its own, with the keyboard
 * alone; Back (the browser's or the page's) returns to the list with the focus on that row; the
 * "confirm it is you" panel takes the focus and Esc closes it. Where the
 * account can give no proof here, "Sign in again" comes back to the same form and the code send it
 * was asked for goes out without another tap. Touch targets ≥ 44 px and axe clean on each screen.
 */
import { join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import {
  inputLabelled,
  masked,
  newCodeFor,
  phoneNumbers,
  signUpByPhone,
  switchLocale,
} from './support/account-steps.ts';
import { withStepUpApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const { app, later } = withStepUpApp(300);
const newPhone = phoneNumbers('1571');
const PASSWORD = 'Heron2718q';
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);

/** Presses Tab until `target` has the focus (at most 40 times). */
const tabTo = async (page: Page, target: Locator) => {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error('Tab never reached the target');
};

const focusedRow = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-row') ?? null);
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);

for (const { locale, text } of LOCALES) {
  test(`${locale}: rows with every form closed; one form at a time, by keyboard; Back returns to the row`, async () => {
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    const phone = newPhone();
    try {
      await signUpByPhone(app, tab, phone, PASSWORD);
      await switchLocale(page, locale);
      await expectScreen(page, text['account.security']);

      // The list: seven rows, each with its state (the copy of my data is on the Privacy page); no form is open.
      const rows = page.locator('.security-rows').getByRole('link');
      await expect.poll(() => rows.count()).toBe(7);
      await rows
        .filter({ hasText: masked(phone) })
        .getByText(text['security.change'])
        .waitFor();
      await rows.filter({ hasText: text['mfa.title'] }).getByText(text['security.off']).waitFor();
      await rows.filter({ hasText: text['password.title'] }).getByText(text['security.passwordSet']).waitFor();
      expect(await page.locator('main input, main select, main textarea').count()).toBe(0);
      await page.waitForLoadState('networkidle');
      await expectCleanScreen(page, 'list');
      await keepScreenshot(page, { path: shot(`security-rows.${locale}.390.png`), fullPage: true });

      // Keyboard alone: Tab to the phone row, Enter opens its one form with the focus on its heading.
      const phoneRow = page.locator('[data-row="phone"]');
      await tabTo(page, phoneRow);
      await page.keyboard.press('Enter');
      await page.getByRole('region', { name: text['phone.title'], exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/account/security/phone');
      await expect.poll(() => focusedText(page)).toBe(text['phone.title']);
      expect(await page.locator('main form').count()).toBe(1);
      expect(await page.locator('.security-rows').count()).toBe(0);
      await expectCleanScreen(page, 'phone form');
      await keepScreenshot(page, { path: shot(`security-phone.${locale}.390.png`), fullPage: true });

      // The browser's Back: the list again, the focus on the row that was opened.
      await page.goBack();
      await page.locator('.security-rows').waitFor();
      expect(new URL(page.url()).pathname).toBe('/account/security');
      await expect.poll(() => focusedRow(page)).toBe('phone');

      // The page's own Back link, by keyboard from the form's heading.
      await page.locator('[data-row="two-step"]').click();
      await page.getByRole('region', { name: text['mfa.title'], exact: true }).waitFor();
      await expect.poll(() => focusedText(page)).toBe(text['mfa.title']);
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => document.activeElement?.classList.contains('back-link'))).toBe(true);
      await page.keyboard.press('Enter');
      await page.locator('.security-rows').waitFor();
      await expect.poll(() => focusedRow(page)).toBe('two-step');

      // A form's own address opens it directly (a reload, a link from elsewhere), in the right section.
      await page.goto(`${app.server.url}/account/security/password`);
      await page.getByRole('region', { name: text['password.title'], exact: true }).waitFor();
      const current = page.locator('nav a[aria-current="page"]');
      expect(await current.innerText()).toBe(text['account.security']);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 120_000);

  test(`${locale}: no way to confirm here: "sign in again" comes back to the form and sends the code`, async () => {
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    const phone = newPhone();
    const next = newPhone();
    try {
      await signUpByPhone(app, tab, phone, PASSWORD);
      await page.evaluate((chosen) => localStorage.setItem('edupass.locale', chosen), locale);
      await page.goto(`${app.server.url}/account/security/phone`);
      const region = page.getByRole('region', { name: text['phone.title'], exact: true });
      await region.waitFor();

      // The sign-in is older than the window, and what it could confirm with cannot be read (the
      // status request fails): the panel's one way on is to sign in again.
      later();
      await page.route('**/accounts/step-up', (route) => route.abort('connectionrefused'));
      await inputLabelled(tab, text['phone.old']).fill(phone);
      await inputLabelled(tab, text['phone.new']).fill(next);
      const send = region.getByRole('button', { name: text['code.send'] });
      await send.click();
      // The panel takes the focus; Esc closes it and gives the focus back to the button.
      const stepUp = page.getByRole('region', { name: text['stepUp.title'] });
      await stepUp.waitFor();
      await expect.poll(() => focusedText(page)).toBe(text['stepUp.title']);
      await page.keyboard.press('Escape');
      await stepUp.waitFor({ state: 'detached' });
      await expect.poll(() => focusedText(page)).toBe(text['code.send']);
      await page.keyboard.press('Enter');
      await stepUp.getByText(text['stepUp.signInAgainWhy']).waitFor();
      expect(await stepUp.getByRole('button', { name: text['stepUp.byPassword'] }).count()).toBe(0);
      await expectCleanScreen(page, 'sign in again');
      await keepScreenshot(page, { path: shot(`step-up-sign-in-again.${locale}.390.png`), fullPage: true });
      await page.unroute('**/accounts/step-up');
      expect(await app.server.lastCode(next)).toBeUndefined();

      await stepUp.getByRole('button', { name: text['stepUp.signInAgain'] }).click();
      await expectScreen(page, text['signIn.title']);
      await page.getByRole('tab', { name: text['signIn.tabPassword'] }).click();
      await inputLabelled(tab, text['form.identity']).fill(phone);
      await inputLabelled(tab, text['form.password']).fill(PASSWORD);
      await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();

      // Back on the same form, the numbers as they were, and the code on its way without another tap.
      await region.waitFor();
      expect(new URL(page.url()).pathname).toBe('/account/security/phone');
      const digits = (label: string) =>
        inputLabelled(tab, label)
          .inputValue()
          .then((value) => value.replace(/\D/g, ''));
      await expect.poll(() => digits(text['phone.new'])).toBe(next);
      expect(await digits(text['phone.old'])).toBe(phone);
      const code = await newCodeFor(app, next);
      await region.getByRole('button', { name: /\d/ }).first().waitFor();
      await region.getByLabel(text['form.code']).fill(code);
      await region.getByRole('button', { name: text['phone.rebindSubmit'] }).click();
      await region.getByText(text['phone.rebindDone']).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 120_000);
}
