/**
 * A QQ identity not linked to any account: back from the development provider, the visitor binds a
 * phone by code (or goes on without one) after agreeing to the agreements.
 */
import { join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { clearCaptchaPolicy, setCaptchaPolicy } from '@edupass/test-kit/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { solveSlide } from './support/slide.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const startQQ = async (locale: 'en' | 'zh-CN', name: string) => {
  const tab = await openPage(app.browser, { locale });
  const { page } = tab;
  await page.goto(app.server.url);
  await page.locator('.oauth-qq').click();
  await page.getByLabel('昵称 · Nickname').fill(name);
  await page.getByRole('button', { name: '新建并登录 · Create and sign in' }).click();
  return tab;
};

test('a new QQ identity goes on without a phone once the agreements are ticked', async () => {
  const tab = await startQQ('en', `qq${Date.now().toString(36).slice(-5)}`);
  const { page } = tab;
  try {
    await expectScreen(page, 'Finish signing in with QQ');
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(import.meta.dirname, 'screenshots/oauth-finish.en.1280.png') });
    await page.getByRole('button', { name: 'Continue without a phone' }).click();
    await page.getByText('Tick the box to agree before you continue.').waitFor();
    await page.getByLabel('I have read and agree to').check();
    await page.getByRole('button', { name: 'Continue without a phone' }).click();
    await expectScreen(page, 'Profile');
    await page.getByRole('link', { name: 'WeChat & QQ' }).click();
    await expectScreen(page, 'WeChat & QQ');
    // QQ is this account's only way in: unbinding it is refused with the reason.
    await page.getByRole('button', { name: 'Unbind QQ' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unbind QQ' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'This is your only way to sign in. Bind a phone, or set a username and password, first.' })
      .waitFor();
  } finally {
    await tab.close();
  }
});

test('under captcha policy always, going on without a phone puts up the slide puzzle first', async () => {
  const ctx = app.server.app.ctx;
  await setCaptchaPolicy(ctx, 'edupass', 'oauth', 'always');
  const tab = await startQQ('en', `qq${Date.now().toString(36).slice(-5)}`);
  const { page } = tab;
  try {
    await expectScreen(page, 'Finish signing in with QQ');
    await page.getByLabel('I have read and agree to').check();
    await page.getByRole('button', { name: 'Continue without a phone' }).click();
    await page.getByRole('dialog').waitFor();
    await solveSlide(page, app.server);
    await expectScreen(page, 'Profile');
    expect(tab.errors).toEqual([]);
  } finally {
    await clearCaptchaPolicy(ctx, 'edupass', 'oauth');
    await tab.close();
  }
});

test('a new QQ identity binds a phone by SMS code (in Chinese)', async () => {
  const tab = await startQQ('zh-CN', `企鹅${Date.now().toString(36).slice(-4)}`);
  const { page } = tab;
  const phone = `1560000${String(Date.now() % 10_000).padStart(4, '0')}`;
  try {
    await expectScreen(page, '完成QQ登录');
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(import.meta.dirname, 'screenshots/oauth-finish.zh-CN.1280.png') });
    await page.getByLabel('手机号').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => app.server.lastCode(phone)).toMatch(/^\d{6}$/);
    await page.getByLabel('验证码').fill((await app.server.lastCode(phone)) ?? '');
    await page.getByLabel('我已阅读并同意').check();
    await page.getByRole('button', { name: '绑定手机号并登录' }).click();
    await expectScreen(page, '个人资料');
    await page.getByRole('link', { name: '隐私' }).click();
    await page.getByText(`${phone.slice(0, 3)}****${phone.slice(-4)}`).waitFor();
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});

for (const { locale, text } of LOCALES) {
  test(`WeChat started from another host name of the server shows a readable screen, not JSON (${locale})`, async () => {
    // The same server under a host name that is not PUBLIC_URL's (localhost rather than 127.0.0.1).
    const elsewhere = app.server.url.replace('127.0.0.1', 'localhost');
    const tab = await openPage(app.browser, { locale, width: 390, height: 844 });
    const { page } = tab;
    try {
      await page.goto(elsewhere);
      await expectScreen(page, text['signIn.title']);
      await page.locator('.oauth-wechat').click();
      const site = new URL(app.server.url).host;
      const name = text['oauth.wechat'];
      await page
        .getByRole('alert')
        .filter({ hasText: text['oauth.wrongSite'].replace('{name}', name).replace('{site}', site) })
        .waitFor();
      expect(new URL(page.url()).origin).toBe(app.server.url);
      await expectScreen(page, name);
      expect(await seriousViolations(page)).toEqual([]);
      // From there, the sign-in page of the right host.
      await page.getByRole('link', { name: text['reset.back'] }).click();
      await expectScreen(page, text['signIn.title']);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}
