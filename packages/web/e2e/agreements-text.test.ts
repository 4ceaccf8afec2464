/**
 * The agreements can be read before consenting: the links beside the box open the operator's text of
 * the published version in a sheet, and /legal/<code>?version=N shows it on its own page. The text is
 * shown as text (markup in it stays inert), in the page's language (a version without one in the
 * other, saying so). Both languages, phone and desktop.
 */

import { insertAgreement } from '@edupass/test-kit/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
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
  await insertAgreement(
    app.server.app.ctx.db,
    { code: 'pupils', version: 1, url: '/legal/pupils?version=1', effective_at: now - 1000, created_at: now },
    [{ lang: 'en', title: 'For parents', content: 'Read this with your child.' }],
  );
});
afterAll(async () => {
  await app?.close();
});

/** How each language names the two agreements beside the box, and the start of the shipped terms. */
const NAMES = {
  'zh-CN': { terms: '《用户协议》', privacy: '《隐私政策》', termsText: '使用本网站，即表示你同意合法使用' },
  en: {
    terms: 'Terms of Service',
    privacy: 'Privacy Policy',
    termsText: 'By using this site you agree to use it lawfully',
  },
};
const LOCALES = LANGUAGES.map((language) => ({ ...language, ...NAMES[language.locale] }));

describe.each(LOCALES)('$locale', ({ locale, text, terms, privacy, termsText }) => {
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
        await sheet.getByText(termsText).waitFor();
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
        await page.getByText(termsText).waitFor();
        expect(await page.locator('article[lang]').getAttribute('lang')).toBe(locale);
        await page.goto(`${app.server.url}/legal/privacy?version=2`);
        await page.getByText(PRIVACY_V2[0] as string).waitFor();
        // A version in English only: read in English on the Chinese page too, which says why.
        await page.goto(`${app.server.url}/legal/pupils?version=1`);
        await page.getByText('Read this with your child.').waitFor();
        expect(await page.getByText(text['agree.otherLanguage']).count()).toBe(locale === 'en' ? 0 : 1);
        expect(await seriousViolations(page)).toEqual([]);
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
