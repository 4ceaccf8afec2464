/**
 * Where the account can give no proof on the page (what it could confirm with cannot be read),
 * "Sign in again" comes back to the same place and the action confirmed before goes on without being
 * asked again: deleting the account, and unbinding WeChat. Both languages, on a phone.
 */
import { join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { phoneNumbers, signInByPassword, signUpByPhone } from './support/account-steps.ts';
import { withStepUpApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';
import { PHONE } from './support/touch.ts';

const { app, later } = withStepUpApp(300);
const newPhone = phoneNumbers('1583');
const PASSWORD = 'Heron2718q';
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);
type Text = (typeof LOCALES)[number]['text'];

/** The sign-in is older than the window and the proofs cannot be read: the panel's one way on is to sign in again. */
const onlySignInAgain = async (page: Page) => {
  later();
  await page.route('**/accounts/step-up', (route) => route.abort('connectionrefused'));
};

/** From the step-up panel: "Sign in again", then the password sign-in, in the page's language. */
const signInAgain = async (tab: TestPage, text: Text, phone: string, name: string) => {
  const { page } = tab;
  const stepUp = page.getByRole('region', { name: text['stepUp.title'] });
  await stepUp.getByText(text['stepUp.signInAgainWhy']).waitFor();
  await keepScreenshot(page, { path: shot(`${name}.390.png`), fullPage: true });
  await page.unroute('**/accounts/step-up');
  await stepUp.getByRole('button', { name: text['stepUp.signInAgain'] }).click();
  await expectScreen(page, text['signIn.title']);
  await signInByPassword(tab, phone, PASSWORD, text);
};

for (const { locale, text } of LOCALES) {
  test(`${locale}: deleting the account goes on after signing in again`, async () => {
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    const phone = newPhone();
    try {
      await signUpByPhone(app, tab, phone, PASSWORD);
      await page.evaluate((chosen) => localStorage.setItem('edupass.locale', chosen), locale);
      await page.goto(`${app.server.url}/account/security/delete`);
      const region = page.getByRole('region', { name: text['deleteAccount.title'], exact: true });
      await region.waitFor();
      await onlySignInAgain(page);
      await region.getByRole('button', { name: text['deleteAccount.submit'] }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: text['deleteAccount.submit'] }).click();
      await signInAgain(tab, text, phone, `resume-delete.${locale}`);

      // Back on the same form, the deletion goes on: signed out, the account set to be deleted.
      await expectScreen(page, text['signIn.title']);
      await page.getByText(text['signIn.accountDeleted']).waitFor();
      // Erased at once, or (with a grace period) waiting to be.
      const user = await app.server.app.ctx.db
        .selectFrom('users')
        .select('erase_at')
        .where('phone', '=', phone)
        .executeTakeFirst();
      expect(user === undefined || user.erase_at !== null).toBe(true);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test(`${locale}: unbinding WeChat goes on after signing in again`, async () => {
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    const phone = newPhone();
    const wechat = text['oauth.wechat'];
    try {
      await signUpByPhone(app, tab, phone, PASSWORD);
      await page.evaluate((chosen) => localStorage.setItem('edupass.locale', chosen), locale);
      await page.goto(`${app.server.url}/account/connections`);
      await page.getByRole('button', { name: text['oauth.bind'].replace('{name}', wechat) }).click();
      await page.getByLabel('昵称 · Nickname').fill(`wx${Date.now().toString(36).slice(-6)}`);
      await page.getByRole('button', { name: '新建并登录 · Create and sign in' }).click();
      await page.getByText(text['oauth.bindDone'].replace('{name}', wechat)).waitFor();

      await onlySignInAgain(page);
      const unbind = text['oauth.unbind'].replace('{name}', wechat);
      await page.getByRole('button', { name: unbind }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: unbind }).click();
      await signInAgain(tab, text, phone, `resume-unbind.${locale}`);

      // Back on WeChat & QQ, the unbinding goes on without another tap.
      await page.getByText(text['oauth.unbindDone'].replace('{name}', wechat)).waitFor();
      expect(new URL(page.url()).pathname).toBe('/account/connections');
      await page.getByRole('button', { name: text['oauth.bind'].replace('{name}', wechat) }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}
