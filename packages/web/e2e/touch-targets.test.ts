/**
 * Touch targets on a phone (390×844), in both languages: every control a finger taps on the sign-in,
 * sign-up and reset screens and on each page of the account centre is at least 44×44 CSS px (a
 * checkbox or radio counts with the label that holds it, which toggles it too; a link inside a
 * sentence is exempt, as WCAG 2.5.8 exempts inline targets), and axe finds nothing serious. The
 * grade picker on the way speaks the page's language.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { phoneNumbers, signUpByPhone } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES } from './support/matrix.ts';
import { openPage } from './support/pages.ts';

const app = withApp();
const newPhone = phoneNumbers('1563');
const PHONE = { width: 390, height: 844 };

/** The interactive elements of the page smaller than 44×44 px, each as "tag "name" width×height". */
const smallTargets = (page: Page): Promise<string[]> =>
  page.evaluate((min) => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="tab"], [role="button"], [role="checkbox"], [role="radio"]';
    const name = (element: Element) =>
      (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    /** A link in running text: its block holds other words too. */
    const inSentence = (element: Element) => {
      const block = element.closest('p, li, label, span, small, div');
      if (!block || block === element) return false;
      const own = element.textContent ?? '';
      return (
        (block.textContent ?? '').replace(own, '').trim().length > 0 && getComputedStyle(element).display === 'inline'
      );
    };
    const small: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      if (element.closest('[hidden], [aria-hidden="true"], [inert]')) continue;
      let box = element.getBoundingClientRect();
      // Not shown, or shown only to screen readers and the keyboard (the skip link until focused).
      if (box.width <= 1 || box.height <= 1 || getComputedStyle(element).visibility === 'hidden') continue;
      if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
        const label =
          element.closest('label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`) : null);
        if (label) box = label.getBoundingClientRect();
      }
      if (element.tagName === 'A' && inSentence(element)) continue;
      if (box.width < min || box.height < min) {
        const type = element instanceof HTMLInputElement ? `[${element.type}]` : '';
        small.push(
          `${element.tagName.toLowerCase()}${type} "${name(element)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return small;
  }, 44);

for (const { locale } of LOCALES) {
  test(`${locale}: every target on the phone screens is at least 44 px, and axe is clean`, async () => {
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    const found: string[] = [];
    const measure = async (path: string) => {
      found.push(...(await smallTargets(page)).map((target) => `${path}: ${target}`));
      expect(await seriousViolations(page), path).toEqual([]);
    };
    try {
      for (const path of ['/', '/sign-up', '/reset-password']) {
        await page.goto(`${app.server.url}${path}`);
        await page.locator('h1').waitFor();
        await measure(path);
      }
      await page.screenshot({ path: join(import.meta.dirname, `screenshots/touch-sign-in.${locale}.390.png`) });
      await page.evaluate((l) => localStorage.setItem('edupass.locale', l), 'en');
      await signUpByPhone(app, tab, newPhone(), 'Heron2718q');
      await page.evaluate((l) => localStorage.setItem('edupass.locale', l), locale);
      for (const path of ['/account', '/account/security', '/account/connections', '/account/privacy']) {
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
      await page.screenshot({
        path: join(import.meta.dirname, `screenshots/touch-security.${locale}.390.png`),
        fullPage: true,
      });
      expect(found, locale).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 120_000);
}
