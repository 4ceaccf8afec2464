/**
 * The nickname the server draws for a new account (用户 and eight digits) is said in the page's
 * language: "User 12345678" in English, 用户12345678 in Chinese, in the greeting and in the profile's
 * nickname field (empty, with the drawn name shown in its place), while the API keeps the drawn name.
 * Saving the profile untouched changes no nickname; a chosen one is shown as typed.
 */
import { join } from 'node:path';
import { isDefaultNickname } from '@edupass/protocol';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { expect, test } from 'vitest';
import { inputLabelled, phoneNumbers, signUpByPhone, switchLocale } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { PHONE } from './support/touch.ts';

const app = withApp();
const newPhone = phoneNumbers('1581');
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);

for (const { locale, text } of LOCALES) {
  test(`${locale}: the drawn default nickname is shown in the page's language`, async () => {
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    try {
      const phone = newPhone();
      await signUpByPhone(app, tab, phone, 'Heron2718q');
      const stored = async () =>
        (
          await app.server.app.ctx.db
            .selectFrom('users')
            .select('nickname')
            .where('phone', '=', phone)
            .executeTakeFirstOrThrow()
        ).nickname ?? '';
      const nickname = await stored();
      // The API contract: a nickname is never empty, and a new account's is the drawn one.
      expect(isDefaultNickname(nickname)).toBe(true);
      const digits = nickname.slice(-8);
      const shown = locale === 'en' ? `User ${digits}` : `用户${digits}`;

      await switchLocale(page, locale);
      await page.getByRole('link', { name: text['account.profile'] }).click();
      await expectScreen(page, text['account.profile']);
      await page.getByText(text['account.hello'].replace('{name}', shown), { exact: true }).waitFor();
      const field = inputLabelled(tab, text['profile.nickname']);
      expect(await field.inputValue()).toBe('');
      expect(await field.getAttribute('placeholder')).toBe(shown);
      if (locale === 'en') expect(await page.locator('main').innerText()).not.toContain('用户');
      await keepScreenshot(page, { path: shot(`default-nickname.${locale}.390.png`), fullPage: true });

      // Saved untouched: the drawn nickname stays.
      await page.getByRole('button', { name: text['profile.save'] }).click();
      await page.getByText(text['profile.unchanged']).waitFor();
      expect(await stored()).toBe(nickname);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}
