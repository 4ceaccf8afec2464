/**
 * A new QQ sign-in binding a phone that already has an account, on a phone (390×844), in both
 * languages: never linked silently. Once the code went to that phone the form says the QQ account will
 * be linked to that account (the phone masked), names that on its button and offers another phone;
 * a submit before it was said stops to say it (the server's `user_exists`, GET oauth/third-party). Only
 * the named choice links, and signs in to that account. Touch targets ≥ 44 px and axe clean.
 */
import { join } from 'node:path';
import { signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { expect, test } from 'vitest';
import { inputLabelled, masked, newCodeFor, phoneNumbers } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const app = withApp();
const newPhone = phoneNumbers('1573');

for (const { locale, text } of LOCALES) {
  test(`${locale}: binding QQ to a phone that has an account says so and links only when chosen`, async () => {
    const phone = newPhone();
    const owner = await signUp(app.server, phone);
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    const nickname = `qq${Date.now().toString(36).slice(-6)}`;
    const qq = text['oauth.qq'];
    try {
      await page.goto(app.server.url);
      await expectScreen(page, text['signIn.title']);
      // The provider's page may take long to load on a busy machine: its field is waited for, not the click.
      await page.locator('.oauth-qq').click({ noWaitAfter: true });
      await page.getByLabel('昵称 · Nickname').waitFor();
      await page.getByLabel('昵称 · Nickname').fill(nickname);
      await page.getByRole('button', { name: '新建并登录 · Create and sign in' }).click();
      await expectScreen(page, text['oauth.finishTitle'].replace('{name}', qq));

      // The code goes to the phone of the existing account: the form says what binding it would do.
      await inputLabelled(tab, text['form.phone']).fill(phone);
      await page.getByRole('button', { name: text['code.send'] }).click();
      const warning = text['oauth.phoneHasAccount'].replace('{phone}', masked(phone)).replace('{name}', qq);
      await page.getByText(warning).waitFor();
      await page.getByRole('button', { name: text['oauth.joinSubmit'] }).waitFor();
      expect(await page.getByRole('button', { name: text['oauth.bindPhoneSubmit'] }).count()).toBe(0);
      await expectCleanScreen(page, 'phone has an account');
      await keepScreenshot(page, {
        path: join(import.meta.dirname, `screenshots/oauth-phone-has-account.${locale}.390.png`),
        fullPage: true,
      });

      // Another phone: the warning goes, the phone box is emptied and has the focus.
      await page.getByRole('button', { name: text['oauth.otherPhone'] }).click();
      await page.getByText(warning).waitFor({ state: 'detached' });
      const phoneBox = inputLabelled(tab, text['form.phone']);
      expect(await phoneBox.inputValue()).toBe('');
      expect(await phoneBox.evaluate((input) => input === document.activeElement)).toBe(true);

      // The same phone again with its code, submitted at once: the form stops to say it first.
      await phoneBox.fill(phone);
      await inputLabelled(tab, text['form.code']).fill(await newCodeFor(app, phone));
      await page.getByLabel(text['agree.prefix']).check();
      await page.getByRole('button', { name: text['oauth.bindPhoneSubmit'] }).click();
      await page.getByText(warning).waitFor();
      expect(new URL(page.url()).searchParams.get('oauth')).toBe('qq');

      // Chosen by name: the QQ account is linked to that account, which is signed in.
      await page.getByRole('button', { name: text['oauth.joinSubmit'] }).click();
      await expectScreen(page, text['profile.title']);
      const links = await app.server.app.ctx.db
        .selectFrom('user_oauths')
        .select(['user_id', 'provider'])
        .where('user_id', '=', owner.userId)
        .execute();
      expect(links).toEqual([{ user_id: owner.userId, provider: 'qq' }]);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 120_000);
}
