/**
 * The guardian's pages at phone width, in zh-CN and en, in the 44 px and axe walk: the guardian area
 * (link form, a linked child's panel) and the consent page with the adult check on (the `dev`
 * real-name stand-in). A guardian link code scanned while signed out (the QR code opens
 * `/guardian#<code>`) survives the sign-in: the guardian lands on the link form with the code filled,
 * and links; deleting the child's account leaves it waiting, and the guardian keeps it again. The
 * consent page asks for the adult check first, then takes the consent.
 */
import { guardianLinkTable, guardianTable } from '@edupass/protocol';
import { PASSWORD, signUp, signUpAgreed } from '@edupass/test-kit/accounts';
import { bornYearsAgo } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { describe, expect, test } from 'vitest';
import { phoneNumbers, signInBySms, switchLocale } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage, shown } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const app = withApp({
  // A guardian's deletion waits out its grace period, which the guardian can end.
  accountDeletionGraceDays: 15,
  realname: { provider: 'dev', accessKeyId: '', accessKeySecret: '', endpoint: '', region: '', timeoutMs: 5_000 },
});
const newPhone = phoneNumbers('1586');
const WAIT = { timeout: 60_000 };
const EN = LOCALES[1].text;

/** A mainland ID number of an adult with its check digit (the `dev` stand-in matches any such number). */
const adultIdNumber = () => {
  const body = `11010519800101${String(Math.floor(Math.random() * 900) + 100)}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(body[i]), 0);
  return `${body}${'10X98765432'[sum % 11]}`;
};

describe.each(LOCALES)('$locale, phone', ({ locale, text }) => {
  test('a scanned link code survives the sign-in; the guardian pages pass 44 px and axe; the adult check comes before consent', async () => {
    const call = client(app.server.url);
    const guardianPhone = newPhone();
    await signUpAgreed(app.server, guardianPhone);
    const child = await signUp(app.server, newPhone(), PASSWORD, [-1], { birth_year_month: bornYearsAgo(12) });
    const { code } = (
      await call<{ code: string }>('POST', guardianLinkTable.openGuardianCode.path, {}, { token: child.token })
    ).body;
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    try {
      // Scanned signed out: the sign-in comes first, and the code waits.
      await page.goto(`${app.server.url}/guardian#${code}`);
      await signInBySms(app, tab, guardianPhone);
      await expectScreen(page, EN['guardian.title']);
      await switchLocale(page, locale);
      await expectScreen(page, text['guardian.title']);
      await expect.poll(() => page.getByTestId('guardian-code').inputValue(), WAIT).toBe(code);
      expect(page.url()).not.toContain(code);
      await expectCleanScreen(page, '/guardian (link form)');
      await page.getByLabel(text['guardianConsent.relation']).selectOption('father');
      await page.getByRole('button', { name: text['guardian.link'], exact: true }).click();
      await page.getByText(text['guardian.linked']).waitFor(WAIT);
      await page.waitForLoadState('networkidle');
      await expectCleanScreen(page, '/guardian (a child linked)');
      // A deletion the guardian asks for waits out its grace period, and the guardian can stop it.
      await page.getByRole('button', { name: text['guardian.delete'], exact: true }).click();
      const deleting = page.getByRole('alertdialog');
      await deleting.getByRole('button', { name: text['guardian.delete'], exact: true }).click(WAIT);
      await page.getByText(text['guardian.deleted']).waitFor(WAIT);
      await shown(page, page.getByRole('button', { name: text['guardian.keep'], exact: true }), WAIT.timeout);
      await expectCleanScreen(page, '/guardian (a deletion waiting)');
      await page.getByRole('button', { name: text['guardian.keep'], exact: true }).click();
      const keeping = page.getByRole('alertdialog');
      await keeping.getByRole('button', { name: text['guardian.keep'], exact: true }).click(WAIT);
      await page.getByText(text['guardian.kept']).waitFor(WAIT);
      await page.getByRole('button', { name: text['guardian.delete'], exact: true }).waitFor(WAIT);
      // The code is spent and no longer kept: a reload shows an empty form.
      await page.reload();
      await expectScreen(page, text['guardian.title']);
      expect(await page.getByTestId('guardian-code').inputValue()).toBe('');

      // A second child's consent link: the adult check first, then the decision.
      const second = await signUp(app.server, newPhone(), PASSWORD, [-1], { birth_year_month: bornYearsAgo(9) });
      const { link } = (
        await call<{ link: string }>('POST', guardianTable.openConsentLink.path, {}, { token: second.token })
      ).body;
      await page.goto(`${app.server.url}/consent#${link}`);
      await expectScreen(page, text['guardianConsent.title']);
      await page.getByRole('heading', { name: text['adultCheck.title'] }).waitFor(WAIT);
      await expectCleanScreen(page, '/consent (adult check)');
      await page.getByLabel(text['guardianConsent.relation']).selectOption('mother');
      await page.getByRole('button', { name: text['guardianConsent.agree'] }).click();
      // Not checked yet: the server says no, and the page says why.
      await page.getByRole('alert').first().waitFor(WAIT);
      await page.getByTestId('adult-check-name').fill('王大明');
      // A number whose check digit is wrong is refused before any vendor is asked.
      const valid = adultIdNumber();
      await page.getByTestId('adult-check-number').fill(`${valid.slice(0, 17)}${valid.endsWith('0') ? '1' : '0'}`);
      await page.getByRole('button', { name: text['adultCheck.submit'] }).click();
      await page.locator('#adult-check-title ~ [role="alert"], form [role="alert"]').first().waitFor(WAIT);
      await page.getByTestId('adult-check-number').fill(valid);
      await page.getByRole('button', { name: text['adultCheck.submit'] }).click();
      await page.getByText(text['adultCheck.passed']).waitFor(WAIT);
      await page.getByRole('button', { name: text['guardianConsent.agree'] }).click();
      await expectScreen(page, text['guardianConsent.doneTitle']);
      await expectCleanScreen(page, '/consent (done)');
    } finally {
      await tab.close();
    }
  }, 180_000);
});
