/**
 * Two-step verification on a phone (390×844), in both languages: the authenticator set-up offers an
 * `otpauth:` link (the phone showing the QR code cannot scan it) and a copy of the key; the recovery
 * codes shown once are copied, downloaded as a .txt file and printed alone; with few left the row and
 * the section say "N left — make new ones"; the sign-in's second step offers "use a recovery code
 * instead". Touch targets ≥ 44 px and axe clean on each screen. App codes are computed here (RFC 6238).
 */

import { join } from 'node:path';
import { text as readStream } from 'node:stream/consumers';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { steppingClock } from '@edupass/test-kit/rfc6238';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FEW_RECOVERY_CODES } from '../src/screens/account/security-rows.ts';
import { inputLabelled, openSecurityRow, phoneNumbers, signUpByPhone, switchLocale } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const { now, freshCode } = steppingClock();
let app: AppUnderTest;
beforeAll(async () => {
  // The clipboard is one per browser: a Chromium of this file's own (phone-code-inputs pastes at the same time).
  app = await startApp({}, { now }, { own: true });
});
afterAll(async () => {
  await app?.close();
});

const newPhone = phoneNumbers('1572');
const PASSWORD = 'Heron2718q';
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);

/** Spends `codes` as step-up proofs of the page's own session (each recovery code works once). */
const spendRecoveryCodes = (page: Page, codes: string[]) =>
  page.evaluate(async (list) => {
    for (const code of list) {
      const answer = await fetch('/tiger/v3/web/accounts/step-up/second-factor', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      if (answer.status !== 204) throw new Error(`recovery code refused: ${answer.status}`);
    }
  }, codes);

for (const { locale, text } of LOCALES) {
  test(`${locale}: otpauth link and key copy; recovery codes copied, downloaded, printed; few left; recovery code at sign-in`, async () => {
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    const phone = newPhone();
    try {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
      await signUpByPhone(app, tab, phone, PASSWORD);
      await switchLocale(page, locale);
      await expectScreen(page, text['account.security']);
      const section = await openSecurityRow(page, text['mfa.title']);

      // The set-up: an otpauth: link holding the key, and the key copied in one tap.
      await section.getByRole('button', { name: text['mfa.appSetUp'] }).click();
      const secret = (await section.locator('code.secret').innerText()).trim();
      const open = section.getByRole('link', { name: text['mfa.appOpen'] });
      const uri = (await open.getAttribute('href')) ?? '';
      expect(uri).toMatch(/^otpauth:\/\/totp\//);
      expect(new URL(uri).searchParams.get('secret')).toBe(secret);
      await section.getByRole('button', { name: text['mfa.appKeyCopy'] }).click();
      await section.getByText(text['mfa.appKeyCopied']).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await expectCleanScreen(page, 'app set-up');
      await keepScreenshot(page, { path: shot(`mfa-app-setup.${locale}.390.png`), fullPage: true });

      // The recovery codes, shown once: copied, downloaded as .txt, printed alone.
      await section.getByLabel(text['mfa.appCode']).fill(freshCode(secret));
      await section.getByRole('button', { name: text['mfa.appConfirm'] }).click();
      const items = section.getByRole('list', { name: text['mfa.recovery'] }).getByRole('listitem');
      await expect.poll(() => items.count()).toBe(10);
      const codes = (await items.allInnerTexts()).map((code) => code.trim());
      await section.getByRole('button', { name: text['mfa.recoveryCopy'] }).click();
      await section.getByText(text['mfa.recoveryCopied']).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        section.getByRole('button', { name: text['mfa.recoveryDownload'] }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/recovery-codes\.txt$/);
      // The browser may run elsewhere (connected to): the file is read as a stream.
      const file = await readStream(await download.createReadStream());
      expect(file.split('\r\n').filter((line) => codes.includes(line))).toEqual(codes);

      await page.evaluate(() => {
        (window as unknown as { printed: number }).printed = 0;
        window.print = () => {
          (window as unknown as { printed: number }).printed++;
        };
      });
      await section.getByRole('button', { name: text['mfa.recoveryPrint'] }).click();
      expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
      await page.emulateMedia({ media: 'print' });
      const shown = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((element) => getComputedStyle(element).visibility === 'visible');
      expect(await shown('.recovery-codes li code')).toBe(true);
      expect(await shown('.account-side nav')).toBe(false);
      expect(await page.locator('.recovery-codes .no-print').evaluate((e) => getComputedStyle(e).display)).toBe('none');
      await page.emulateMedia({ media: 'screen' });
      await expectCleanScreen(page, 'recovery codes');
      await keepScreenshot(page, { path: shot(`mfa-recovery-codes.${locale}.390.png`), fullPage: true });
      await section.getByRole('button', { name: text['mfa.recoveryDone'] }).click();

      // Few left: the row and the section say so, and offer new ones first.
      const left = FEW_RECOVERY_CODES - 1;
      await spendRecoveryCodes(page, codes.slice(0, codes.length - left));
      await page.goto(`${app.server.url}/account/security`);
      const row = page.locator('[data-row="two-step"]');
      await row.getByText(text['security.onFewCodes'].replace('{count}', String(left))).waitFor();
      await row.click();
      await section.getByText(text['mfa.recoveryFew'].replace('{count}', String(left))).waitFor();
      expect(await section.getByRole('button', { name: text['mfa.recoveryNew'] }).getAttribute('class')).toContain(
        'primary',
      );
      await expectCleanScreen(page, 'few recovery codes');
      await keepScreenshot(page, { path: shot(`mfa-few-codes.${locale}.390.png`), fullPage: true });

      // The second step of a sign-in: "use a recovery code instead", and one of the codes left.
      await page.getByRole('button', { name: text['account.signOut'] }).click();
      await expectScreen(page, text['signIn.title']);
      await page.getByRole('tab', { name: text['signIn.tabPassword'] }).click();
      await inputLabelled(tab, text['form.identity']).fill(phone);
      await inputLabelled(tab, text['form.password']).fill(PASSWORD);
      await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
      await page.getByRole('heading', { name: text['mfa.secondStep'] }).waitFor();
      await page.getByRole('button', { name: text['mfa.useRecovery'] }).click();
      const recoveryField = inputLabelled(tab, text['mfa.recoveryCode']);
      await expect.poll(() => recoveryField.evaluate((input) => input === document.activeElement)).toBe(true);
      await page.getByRole('button', { name: text['mfa.useApp'] }).waitFor();
      await expectCleanScreen(page, 'second step by recovery code');
      await keepScreenshot(page, { path: shot(`second-step-recovery.${locale}.390.png`), fullPage: true });
      await recoveryField.fill(codes.at(-1) ?? '');
      await page.getByRole('button', { name: text['mfa.verify'], exact: true }).click();
      await expectScreen(page, text['profile.title']);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 150_000);
}
