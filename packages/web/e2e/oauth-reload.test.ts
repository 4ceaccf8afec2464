/**
 * Opening a WeChat return again once it was used (a reload, Back to it, a copied link): never the
 * bare "That action is not allowed." Signed out, the page says the sign-in was finished or waited too
 * long and leads back to the sign-in page; signed in already, the visitor goes on to the account. In
 * both languages, on a phone.
 */
import { join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { expect, test } from 'vitest';
import { switchLocale } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const app = withApp();
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);

for (const { locale, text } of LOCALES) {
  test(`${locale}: a used WeChat return, opened again signed out and then signed in`, async () => {
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    const wechat = text['oauth.wechat'];
    const fill = (words: string) => words.replace('{name}', wechat);
    const toFinish = async () => {
      await page.goto(`${app.server.url}/sign-in`);
      await page.locator('.oauth-wechat').click();
      await page.getByLabel('昵称 · Nickname').fill(`wx${Date.now().toString(36).slice(-6)}`);
      await page.getByRole('button', { name: '新建并登录 · Create and sign in' }).click();
      await expectScreen(page, fill(text['oauth.finishTitle']));
      return page.url();
    };
    try {
      // Signed out: the finish form's page reloaded (its ticket is gone with it).
      await toFinish();
      await switchLocale(page, locale);
      await page.getByText(fill(text['oauth.returnSpent'])).waitFor();
      expect(await page.getByText(/不允许该操作|That action is not allowed/).count()).toBe(0);
      await expectCleanScreen(page, 'spent return');
      await keepScreenshot(page, { path: shot(`oauth-return-reloaded.${locale}.390.png`), fullPage: true });
      await page.getByRole('link', { name: text['reset.back'] }).click();
      await expectScreen(page, text['signIn.title']);

      // Signed in through it: the same return opened again goes on to the account.
      const used = await toFinish();
      await page.getByLabel(text['agree.prefix']).check();
      await page.getByRole('button', { name: text['oauth.createSubmit'] }).click();
      await expectScreen(page, text['account.profile']);
      await page.goto(used);
      await expectScreen(page, text['account.profile']);
      expect(new URL(page.url()).pathname).toBe('/account');
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}
