/**
 * Touch targets on a phone (390×844), in both languages: every control a finger taps on the sign-in,
 * sign-up and reset screens, on each page of the account centre and on the guardian area is at least 44×44 CSS px (a
 * checkbox or radio counts with the label that holds it, which toggles it too; a link inside a
 * sentence is exempt, as WCAG 2.5.8 exempts inline targets), no checkbox or radio sits alone on its
 * line with its words under it, and axe finds nothing serious. The
 * grade picker on the way speaks the page's language.
 */
import { join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { expect, test } from 'vitest';
import { SECURITY_ROWS } from '../src/screens/account/security-rows.ts';
import { phoneNumbers, signUpByPhone } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES } from './support/matrix.ts';
import { openPage } from './support/pages.ts';
import { PHONE, smallTargets, strandedChoices } from './support/touch.ts';

const app = withApp();
const newPhone = phoneNumbers('1563');

for (const { locale } of LOCALES) {
  test(`${locale}: every target on the phone screens is at least 44 px, and axe is clean`, async () => {
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    const found: string[] = [];
    const measure = async (path: string) => {
      found.push(...(await smallTargets(page)).map((target) => `${path}: ${target}`));
      found.push(...(await strandedChoices(page)).map((choice) => `${path}: stranded ${choice}`));
      expect(await seriousViolations(page), path).toEqual([]);
    };
    try {
      for (const path of ['/', '/sign-up', '/reset-password']) {
        await page.goto(`${app.server.url}${path}`);
        await page.locator('h1').waitFor();
        await measure(path);
      }
      await keepScreenshot(page, { path: join(import.meta.dirname, `screenshots/touch-sign-in.${locale}.390.png`) });
      await page.evaluate((l) => localStorage.setItem('edupass.locale', l), 'en');
      await signUpByPhone(app, tab, newPhone(), 'Heron2718q');
      await page.evaluate((l) => localStorage.setItem('edupass.locale', l), locale);
      const securityForms = SECURITY_ROWS.map((row) => `/account/security/${row}`);
      for (const path of [
        '/account',
        '/account/security',
        ...securityForms,
        '/account/connections',
        '/account/privacy',
        '/guardian',
      ]) {
        await page.goto(`${app.server.url}${path}`);
        await page.locator('h1').waitFor();
        await page.waitForLoadState('networkidle');
        await measure(path);
      }
      // The grade picker names grades and stages in the page's language (the server's names are Chinese).
      await page.goto(`${app.server.url}/account`);
      const grades = page.locator('select optgroup, select option');
      await grades.nth(3).waitFor({ state: 'attached' });
      const gradeNames = await grades.evaluateAll((nodes) =>
        nodes.map((node) => (node instanceof HTMLOptGroupElement ? node.label : (node.textContent ?? ''))),
      );
      const han = /\p{Script=Han}/u;
      expect(gradeNames.filter((name) => han.test(name)).length > 0, gradeNames.join()).toBe(locale === 'zh-CN');
      await page.goto(`${app.server.url}/account/security`);
      await page.locator('h1').waitFor();
      await keepScreenshot(page, {
        path: join(import.meta.dirname, `screenshots/touch-security.${locale}.390.png`),
        fullPage: true,
      });
      expect(found, locale).toEqual([]);
    } finally {
      await tab.close();
    }
    // Fifteen screens, each loaded, measured and scanned by axe: on a loaded two-core machine a screen
    // may take ten seconds.
  }, 180_000);
}
