/**
 * The agreements can be read before consenting: the links beside the box open the operator's text of
 * the published version in a sheet, and /legal/<code>?version=N shows it on its own page. The text is
 * shown as text (markup in it stays inert). Both languages, phone and desktop.
 */

import { insertAgreement } from '@edupass/test-kit/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { LOCALES as LANGUAGES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

const PRIVACY_V2 = [
  'We keep only what your account needs.',
  'Line one of part two\nline two of part two <img src=x onerror="window.__hacked=1"> <script>window.__hacked=1</script>',
];

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
  const now = Date.now();
  await insertAgreement(app.server.app.ctx.db, {
    code: 'privacy',
    title: '隐私政策 / Privacy Policy',
    version: 2,
    url: '/legal/privacy?version=2',
    content: PRIVACY_V2.join('\n\n'),
    effective_at: now - 1000,
    created_at: now,
  });
});
afterAll(async () => {
  await app?.close();
});

/** How each language names the two agreements beside the box. */
const NAMES = {
  'zh-CN': { terms: '《用户协议》', privacy: '《隐私政策》' },
  en: { terms: 'Terms of Service', privacy: 'Privacy Policy' },
};
const LOCALES = LANGUAGES.map((language) => ({ ...language, ...NAMES[language.locale] }));

describe.each(LOCALES)('$locale', ({ locale, text, terms, privacy }) => {
  test.each(VIEWPORTS)(
    '$name: the links open the text in a sheet, and on a page of its own',
    async ({ width, height }) => {
      const tab = await openPage(app.browser, { locale, width, height });
      const { page } = tab;
      try {
        await page.goto(app.server.url);
        await expectScreen(page, text['signIn.title']);
        await page.getByRole('tab', { name: text['signIn.tabSms'] }).click();
        const termsLink = page.getByRole('link', { name: terms, exact: true });
        await termsLink.waitFor();
        expect(await termsLink.getAttribute('href')).toBe('/legal/terms?version=1');
        if (locale === 'en') expect(await page.locator('.agree').innerText()).not.toMatch(/[《》]/);

        await termsLink.click();
        const sheet = page.getByRole('dialog');
        await sheet.getByText('By using this site you agree to use it lawfully').waitFor();
        await sheet.getByText(text['agree.version'].replace('{v}', '1')).waitFor();
        await sheet.getByRole('button', { name: text['agree.close'] }).click();
        await sheet.waitFor({ state: 'hidden' });
        expect(await page.getByRole('checkbox').isChecked()).toBe(false);

        // The published version 2 of the privacy policy: its paragraphs as text, its markup inert.
        await page.getByRole('link', { name: privacy, exact: true }).click();
        await sheet.getByText(PRIVACY_V2[0] as string).waitFor();
        await sheet.getByText('<img src=x', { exact: false }).waitFor();
        expect(await sheet.locator('img, script').count()).toBe(0);
        expect(await sheet.locator('.agreement-text p').count()).toBe(2);
        await page.keyboard.press('Escape');
        await sheet.waitFor({ state: 'hidden' });

        // On its own page, for any published version.
        await page.goto(`${app.server.url}/legal/terms?version=1`);
        await expectScreen(page, text['agree.pageTitle']);
        await page.getByText('By using this site you agree to use it lawfully').waitFor();
        await page.goto(`${app.server.url}/legal/privacy?version=2`);
        await page.getByText(PRIVACY_V2[0] as string).waitFor();
        await page.goto(`${app.server.url}/legal/privacy?version=9`);
        await page.getByRole('alert').filter({ hasText: text['agree.notFound'] }).waitFor();
        expect(await page.evaluate(() => (window as { __hacked?: number }).__hacked)).toBeUndefined();
        expect(tab.errors).toEqual([]);
      } finally {
        await tab.close();
      }
    },
  );
});
