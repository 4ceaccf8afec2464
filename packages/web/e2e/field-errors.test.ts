/**
 * A refusal from the server is said at the input it is about, not in one box above the button: the
 * input is marked invalid, described by the sentence, and focused. A wrong current password, a wrong
 * current number (which starts no resend wait), a wrong code (no "ask for a new one" while the button
 * counts down), an unknown number, a future birthday and an avatar address that is not a web address;
 * in Chinese on a phone and in English on a desktop.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import en from '../src/i18n/locales/en.ts';
import enMore from '../src/i18n/locales/en-more.ts';
import zhCN from '../src/i18n/locales/zh-CN.ts';
import zhCNMore from '../src/i18n/locales/zh-CN-more.ts';
import { inputLabelled, openSecurityRow, phoneNumbers, signUpByPhone } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { expectScreen, openPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const newPhone = phoneNumbers('1571');

/** `input` is invalid, its description holds `message`, it has focus, and no form-wide error is shown. */
const expectErrorAt = async (page: Page, input: Locator, message: string) => {
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const described = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
  expect(described).toContain(message);
  await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
  expect(await page.locator('.form-error').count()).toBe(0);
  // The sentence sits inside the screen, not off its edge.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
};

const CASES = [
  { locale: 'zh-CN', width: 390, height: 844, texts: { text: { ...zhCNMore, ...zhCN.text }, errors: zhCN.errors } },
  { locale: 'en', width: 1280, height: 800, texts: { text: { ...enMore, ...en.text }, errors: en.errors } },
] as const;

describe.each(CASES)('$locale at $width px', ({ locale, width, height, texts }) => {
  const { text, errors } = texts;

  test('an unknown number is said at the phone input of the reset form', async () => {
    const tab = await openPage(app.browser, { locale, width, height });
    const { page } = tab;
    try {
      await page.goto(`${app.server.url}/reset-password`);
      await expectScreen(page, text['reset.title']);
      const phone = inputLabelled(tab, text['form.phone']);
      await phone.fill(newPhone());
      await page.getByRole('button', { name: text['code.send'] }).click();
      await expectErrorAt(page, phone, errors.PHONE_UNREGISTERED);
      expect(await page.locator('.code-error').count()).toBe(0);
      // Typing again clears it.
      await phone.fill(newPhone());
      await expect.poll(() => phone.getAttribute('aria-invalid')).toBeNull();
      expect(await seriousViolations(page)).toEqual([]);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test('a wrong code is said at the code box; "ask for a new one" only once the button allows it', async () => {
    const tab = await openPage(app.browser, { locale, width, height });
    const { page } = tab;
    try {
      await page.clock.install();
      await page.goto(app.server.url);
      await expectScreen(page, text['signIn.title']);
      await page.getByRole('tab', { name: text['signIn.tabSms'] }).click();
      const phone = newPhone();
      await inputLabelled(tab, text['form.phone']).fill(phone);
      await page.getByRole('button', { name: text['code.send'] }).click();
      await expect.poll(() => app.server.lastCode(phone)).toMatch(/^\d{6}$/);
      const code = inputLabelled(tab, text['form.code']);
      const wrong = (await app.server.lastCode(phone)) === '000000' ? '111111' : '000000';
      await code.fill(wrong);
      await page.getByLabel(text['agree.prefix']).check();
      await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();

      // While the resend is locked: the button counts down, nothing offers a new code.
      await expectErrorAt(page, code, text['code.wrongWhileWaiting']);
      const button = page.locator('.code-button');
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      expect(await button.innerText()).toMatch(/\d+/);
      expect(await page.getByRole('button', { name: text['code.voice'] }).count()).toBe(0);

      // Once it may be asked for, the box says so and the button offers it.
      await page.clock.fastForward(61_000);
      await expect.poll(() => button.innerText()).toBe(text['code.resend']);
      expect(await button.getAttribute('aria-disabled')).toBe('false');
      const ids = ((await code.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
      const described = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
      expect(described).toContain(errors.VERIFY_CAPTCHA_FAIL);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test('the account centre: wrong current password, wrong code, future birthday, bad avatar address', async () => {
    const tab = await openPage(app.browser, { locale: 'en', width, height });
    const { page } = tab;
    const phone = newPhone();
    try {
      await signUpByPhone(app, tab, phone, 'Heron2718q');
      await page.evaluate((chosen) => localStorage.setItem('edupass.locale', chosen), locale);
      await page.reload();
      await expectScreen(page, text['account.security']);
      await openSecurityRow(page, text['password.title']);

      const old = inputLabelled(tab, text['password.old']);
      await old.fill('Wrong2718q');
      await inputLabelled(tab, text['form.newPassword']).fill('Plover1414q');
      await inputLabelled(tab, text['form.confirmPassword']).fill('Plover1414q');
      await page.getByRole('button', { name: text['password.submit'] }).click();
      await expectErrorAt(page, old, errors.WRONG_OLD_PASSWORD);
      expect(await seriousViolations(page)).toEqual([]);

      // A wrong current number is said at that input; nothing was sent, so nothing waits.
      const phoneRegion = await openSecurityRow(page, text['phone.title']);
      const oldPhone = phoneRegion.getByLabel(text['phone.old'], { exact: true });
      const next = newPhone();
      await oldPhone.fill(newPhone());
      await phoneRegion.getByLabel(text['phone.new'], { exact: true }).fill(next);
      const codeButton = phoneRegion.locator('.code-button');
      await codeButton.click();
      await expectErrorAt(page, oldPhone, errors.OLD_PHONE_WRONG);
      expect(await codeButton.innerText()).toBe(text['code.send']);
      await oldPhone.fill(phone);
      await codeButton.click();
      await expect.poll(() => app.server.lastCode(next)).toMatch(/^\d{6}$/);
      expect(await phoneRegion.locator('.code-error').count()).toBe(0);

      // A wrong code, while the resend is locked: said at the code box, without "ask for a new one".
      const code = phoneRegion.locator('input').and(phoneRegion.getByLabel(text['form.code'], { exact: true }));
      await code.fill((await app.server.lastCode(next)) === '000000' ? '111111' : '000000');
      await phoneRegion.getByRole('button', { name: text['phone.rebindSubmit'] }).click();
      await expectErrorAt(page, code, text['code.wrongWhileWaiting']);

      await page.getByRole('link', { name: text['account.profile'] }).click();
      await expectScreen(page, text['profile.title']);
      const birthday = page.getByLabel(text['profile.birthday'], { exact: true });
      await birthday.fill(`${new Date().getUTCFullYear() + 1}-01-01`);
      await page.getByRole('button', { name: text['profile.save'] }).click();
      await expectErrorAt(page, birthday, errors.CANNOT_SET_FUTURE_DATE);

      await birthday.fill('2010-05-04');
      // The address is the upload's alternative, folded away under its own summary.
      await page.getByText(text['avatar.useUrl']).click();
      const avatar = page.getByLabel(text['profile.avatarUrl'], { exact: true });
      await avatar.fill('javascript:alert(1)');
      await page.getByRole('button', { name: text['profile.save'] }).click();
      await expectErrorAt(page, avatar, text['profile.avatarUrlInvalid']);
      expect(await seriousViolations(page)).toEqual([]);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
