/**
 * Phone and code boxes take what people type, paste or autofill: +86, spaces, dashes, full-width
 * digits; the number shows grouped 3-4-4 and the code reaches the server as its bare digits.
 * Both languages, phone and desktop.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import en from '../src/i18n/locales/en.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

const PHONE_FORMS = ['+86 138 0013 8000', '138 0013 8000', '138-0013-8000', '１３８００１３８０００', '8613800138000'];
const CODE_FORMS = ['123 456', '１２３４５６', '123-456'];

let app: AppUnderTest;
beforeAll(async () => {
  // The clipboard is one per browser: a Chromium of this file's own (recovery-codes copies at the same time).
  app = await startApp({}, {}, { own: true });
});
afterAll(async () => {
  await app?.close();
});

type Entry = (page: Page, box: ReturnType<Page['locator']>, text: string) => Promise<void>;

const ENTRIES: Record<string, Entry> = {
  typed: async (_page, box, text) => {
    await box.fill('');
    await box.pressSequentially(text);
  },
  pasted: async (page, box, text) => {
    await box.fill('');
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await box.focus();
    await page.keyboard.press('ControlOrMeta+V');
  },
  autofilled: async (_page, box, text) => {
    await box.fill(text);
  },
};

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  test.each(VIEWPORTS)('$name: every form of a number and a code is taken whole', async ({ width, height }) => {
    const tab = await openPage(app.browser, { locale, width, height });
    try {
      const { page } = tab;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
      await page.goto(app.server.url);
      await expectScreen(page, text['signIn.title']);
      await page.getByRole('tab', { name: text['signIn.tabSms'] }).click();
      const phone = page.locator('input').and(page.getByLabel(text['form.phone'], { exact: true }));
      const code = page.locator('input').and(page.getByLabel(text['form.code'], { exact: true }));
      const send = page.getByRole('button', { name: text['code.send'] });
      for (const [how, enter] of Object.entries(ENTRIES)) {
        for (const form of PHONE_FORMS) {
          await enter(page, phone, form);
          await expect.poll(() => phone.inputValue(), { message: `${how} ${form}` }).toBe('138 0013 8000');
          await expect.poll(() => send.getAttribute('aria-disabled'), { message: `${how} ${form}` }).toBe('false');
        }
        for (const form of CODE_FORMS) {
          await enter(page, code, form);
          await expect.poll(() => code.inputValue(), { message: `${how} ${form}` }).toBe('123456');
        }
      }
      // Typing in the middle keeps the caret after the digit typed ("138 |0013 800").
      await phone.fill('1380013800');
      await phone.press('Home');
      for (let i = 0; i < 4; i++) await phone.press('ArrowRight');
      await phone.press('9');
      await expect.poll(() => phone.inputValue()).toBe('138 9001 3800');
      await phone.press('8');
      await expect.poll(() => phone.inputValue()).toBe('138 9800 13800');
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

test('a pasted "+86 …" number gets its code: the API is sent the bare digits', async () => {
  const tab = await openPage(app.browser, { locale: 'en', width: 390, height: 844 });
  try {
    const { page } = tab;
    await page.goto(app.server.url);
    await expectScreen(page, en.text['signIn.title']);
    await page.getByRole('tab', { name: en.text['signIn.tabSms'] }).click();
    await page.getByLabel(en.text['form.phone'], { exact: true }).fill('+86 139-0013 9000');
    await page.getByRole('button', { name: en.text['code.send'] }).click();
    await expect.poll(() => app.server.lastCode('13900139000')).toMatch(/^\d{6}$/);
  } finally {
    await tab.close();
  }
});
