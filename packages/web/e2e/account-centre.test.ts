/**
 * The account centre after the user test: the signed-in devices (this one marked, another signed out
 * at once after a confirmation), the confirmation dialog (Esc cancels, Tab stays inside, focus comes
 * back), the username asked for once more before it is set, the default avatar and nickname of a new
 * account after a reload, a password change that keeps this device signed in, and a failed QQ bind
 * that leads back to the account centre. Both languages, phone and desktop.
 */
import { routes } from '@edupass/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inputLabelled, openSecurityRow, phoneNumbers, signUpByPhone } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const newPhone = phoneNumbers('1572');
const PASSWORD = 'Heron2718q';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Another device signing in by password over HTTP: its access token. */
const signInElsewhere = async (phone: string, password = PASSWORD): Promise<string> => {
  const answer = await fetch(`${app.server.url}${routes.loginByPassword.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Auth-Version': '2', 'user-agent': IPHONE },
    body: JSON.stringify({ identity: phone, password, pid: 'edupass' }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { auth: { token: { access: { token: string } } } }).auth.token.access.token;
};

/** Whether that device is still signed in (its next call is answered). */
const stillSignedIn = async (token: string) =>
  (await fetch(`${app.server.url}${routes.getProfile.path}`, { headers: { authorization: `Bearer ${token}` } }))
    .status === 200;

const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

/** Signs up (in English), then shows the account centre in `locale`. */
const signedUpIn = async (tab: TestPage, locale: string, phone: string) => {
  await signUpByPhone(app, tab, phone, PASSWORD);
  await tab.page.evaluate((chosen) => localStorage.setItem('edupass.locale', chosen), locale);
  await tab.page.reload();
};

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  test.each(VIEWPORTS)('$name: devices, confirmations, the default avatar', async ({ width, height }) => {
    const tab = await openPage(app.browser, { locale: 'en', width, height });
    const { page } = tab;
    const phone = newPhone();
    try {
      await signedUpIn(tab, locale, phone);
      await expectScreen(page, text['account.security']);

      // After a reload the header still knows who this is: the drawn nickname (said in the page's
      // language), its last digits as the avatar.
      const drawnName = new RegExp(text['nickname.default'].replace('{number}', '(\\d{8})'));
      const hello = page.locator('.who p').filter({ hasText: drawnName });
      await hello.waitFor();
      const drawn = drawnName.exec(await hello.innerText())?.[1] ?? '';
      expect(await page.locator('.who .avatar-fallback').innerText()).toBe(drawn.slice(-2));

      const other = await signInElsewhere(phone);
      await page.reload();
      const devices = await openSecurityRow(page, text['devices.title']);
      const rows = devices.locator('.device');
      await expect.poll(() => rows.count()).toBe(2);
      await devices.getByText(text['devices.thisDevice']).waitFor();
      const iphone = text['devices.browserOn'].replace('{browser}', 'Safari').replace('{system}', 'iPhone');
      const signOutIphone = devices.getByRole('button', { name: `${text['devices.signOut']} ${iphone}` });

      // The dialog opens on the safe choice, keeps Tab inside, and Esc says no.
      await signOutIphone.click();
      const dialog = page.getByRole('alertdialog', { name: text['devices.signOutTitle'].replace('{name}', iphone) });
      await dialog.waitFor();
      expect(await focused(page)).toBe(text['confirm.cancel']);
      expect(await seriousViolations(page)).toEqual([]);
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => signOutIphone.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await stillSignedIn(other)).toBe(true);

      await signOutIphone.click();
      await dialog.getByRole('button', { name: text['devices.signOut'] }).click();
      await devices.getByText(text['devices.signedOut'].replace('{name}', iphone)).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await stillSignedIn(other)).toBe(false);

      // The username: asked once more; cancelling sets nothing.
      const username = `learner_${phone.slice(-7)}`;
      await openSecurityRow(page, text['username.title']);
      await inputLabelled(tab, text['username.label']).fill(username);
      await page.getByRole('button', { name: text['username.submit'] }).click();
      const usernameDialog = page.getByRole('alertdialog');
      await usernameDialog.getByText(text['username.confirmBody']).waitFor();
      await usernameDialog.getByRole('button', { name: text['confirm.cancel'] }).click();
      await usernameDialog.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: text['username.submit'] }).click();
      await usernameDialog.getByRole('button', { name: text['username.submit'] }).click();
      await page.getByText(text['username.current'].replace('{name}', username)).waitFor();

      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

test('a password change keeps this device signed in and signs the others out only when asked', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  try {
    await signUpByPhone(app, tab, phone, PASSWORD);
    const kept = await signInElsewhere(phone);
    const passwordRegion = await openSecurityRow(page, 'Password');
    const change = async (from: string, to: string, endOthers: boolean) => {
      await inputLabelled(tab, 'Current password').fill(from);
      await inputLabelled(tab, 'New password').fill(to);
      await inputLabelled(tab, 'Confirm password').fill(to);
      await passwordRegion.getByLabel('Sign me out on my other phones, tablets and computers').setChecked(endOthers);
      await page.getByRole('button', { name: 'Change password' }).click();
    };

    await change(PASSWORD, 'Plover1414q', false);
    await page.getByText('Password changed. You are still signed in on this device.').waitFor();
    expect(await stillSignedIn(kept)).toBe(true);

    await change('Plover1414q', 'Avocet1618q', true);
    await page.getByText('Your password is changed. You will need to sign in again on other devices.').waitFor();
    expect(await stillSignedIn(kept)).toBe(false);
    await expectScreen(page, 'Sign-in & security');
    const devices = await openSecurityRow(page, 'Signed-in devices');
    await expect.poll(() => devices.locator('.device').count()).toBe(1);

    // "Sign out all other devices" too asks first, then ends them at once.
    const another = await signInElsewhere(phone, 'Avocet1618q');
    await page.reload();
    await devices.getByRole('button', { name: 'Sign out all other devices' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out all other devices' }).click();
    await devices.getByText('Every other device is signed out.').waitFor();
    expect(await stillSignedIn(another)).toBe(false);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});

test('a QQ bind that fails while signed in leads back to the account centre (in Chinese)', async () => {
  const qqName = `企鹅${Date.now().toString(36).slice(-4)}`;
  // This QQ identity already has an account of its own.
  const first = await openPage(app.browser, { locale: 'zh-CN' });
  try {
    await first.page.goto(app.server.url);
    await first.page.locator('.oauth-qq').click();
    await first.page.getByLabel('昵称 · Nickname').fill(qqName);
    await first.page.getByRole('button', { name: '新建并登录 · Create and sign in' }).click();
    await expectScreen(first.page, '完成QQ登录');
    await first.page.getByLabel('我已阅读并同意').check();
    await first.page.getByRole('button', { name: '不绑定，直接继续' }).click();
    await expectScreen(first.page, '个人资料');
  } finally {
    await first.close();
  }

  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  try {
    await signedUpIn(tab, 'zh-CN', newPhone());
    await page.getByRole('link', { name: '微信和 QQ' }).click();
    await page.getByRole('button', { name: '绑定QQ' }).click();
    await page.getByRole('button', { name: qqName, exact: true }).click();
    const back = page.getByRole('link', { name: '返回账号中心' });
    await back.waitFor();
    expect(await page.getByRole('link', { name: '返回登录' }).count()).toBe(0);
    await back.click();
    await expectScreen(page, '微信和 QQ');
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});
