/**
 * A copy of my data in the account centre, in both languages: asked for (after a fresh proof, as the
 * sign-in is no longer recent), shown while it is made, then the link is downloaded and the zip opened
 * here: its README is in the page's language and its profile is the account's.
 */
import { buffer } from 'node:stream/consumers';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { inputLabelled, phoneNumbers, signUpByPhone, switchLocale } from './support/account-steps.ts';
import { withStepUpApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

// A sign-in is a proof for a minute; `later()` moves the server's clock past it, so asking meets the
// step-up panel, and the proof given there stays fresh however slowly the request follows it.
const { app, later } = withStepUpApp(60);

const newPhone = phoneNumbers('1574');
const PASSWORD = 'Heron2718q';
/** The first line of the README in each language. */
const README_HEAD = { 'zh-CN': '你在 EduPass 的数据副本', en: 'Your copy of your data at EduPass' };

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  test('ask, prove, download once and open the zip', async () => {
    const tab = await openPage(app.browser, { locale: 'en', width: 390, height: 844 });
    const { page } = tab;
    const phone = newPhone();
    try {
      await signUpByPhone(app, tab, phone, PASSWORD);
      await switchLocale(page, locale);
      await expectScreen(page, text['account.security']);
      // A copy of one's data sits on the Privacy page, beside who read the record.
      await page.getByRole('link', { name: text['account.privacy'], exact: true }).first().click();
      await expectScreen(page, text['account.privacy']);
      const section = page.getByRole('region', { name: text['dataExport.title'], exact: true });
      await section.getByText(text['dataExport.explain']).waitFor();
      later();
      await section.getByRole('button', { name: text['dataExport.ask'] }).click();
      await inputLabelled(tab, text['stepUp.password']).fill(PASSWORD);
      await page.getByRole('button', { name: text['stepUp.byPassword'] }).click();

      const link = section.getByRole('link', { name: text['dataExport.download'] });
      await link.waitFor({ timeout: 60_000 });
      expect(await seriousViolations(page)).toEqual([]);
      const box = await link.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      await keepScreenshot(page, { path: `${import.meta.dirname}/screenshots/data-export.${locale}.png` });

      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      // The browser runs apart from this process: the file comes over its connection.
      const files = unzipSync(new Uint8Array(await buffer(await download.createReadStream())));
      expect(strFromU8(files['README.txt'] ?? new Uint8Array())).toContain(README_HEAD[locale]);
      const profile = JSON.parse(strFromU8(files['profile.json'] ?? new Uint8Array())) as {
        profile: { phone: string }[];
      };
      expect(profile.profile[0]?.phone).toBe(phone);
      expect(Object.keys(files)).toEqual(expect.arrayContaining(['sessions.csv', 'usage-events.csv']));

      // The link worked once: the page now says it was downloaded, and the link is gone.
      await page.reload();
      const again = page.getByRole('region', { name: text['dataExport.title'], exact: true });
      await again.getByText(text['dataExport.state.used']).waitFor();
      expect(await again.getByRole('link', { name: text['dataExport.download'] }).count()).toBe(0);
    } finally {
      await tab.close();
    }
  });
});
