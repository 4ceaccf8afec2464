/**
 * Deletion with a grace period in the browser, in both languages: the account centre deletes the
 * account (confirmed, proved), the visitor lands signed out with a notice; signing in again shows that
 * the account is waiting to be deleted and on which date, with a button to keep it and a way out; the
 * way out leaves it waiting, and keeping it signs in with everything as it was.
 */
import { keepScreenshot } from '@edupass/test-kit/browser';
import { describe, expect, test } from 'vitest';
import {
  inputLabelled,
  openSecurityRow,
  passwordSignInAnswer,
  phoneNumbers,
  signUpByPhone,
  switchLocale,
} from './support/account-steps.ts';
import { withStepUpApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';
import { say } from './support/story-steps.ts';

// A sign-in is a proof for a minute; `later()` moves the server's clock past it, so the deletion meets
// the step-up panel, and the proof given there stays fresh however slowly the deletion follows it.
const { app, later } = withStepUpApp(60, { accountDeletionGraceDays: 15 });

const newPhone = phoneNumbers('1574');
const PASSWORD = 'Heron2718q';

const passwordLogin = (phone: string) => passwordSignInAnswer(app, phone, PASSWORD);

type Text = (typeof LOCALES)[number]['text'];

const signInWithPassword = async (tab: TestPage, text: Text, phone: string) => {
  const { page } = tab;
  await page.getByRole('tab', { name: text['signIn.tabPassword'] }).click();
  await inputLabelled(tab, text['form.identity']).fill(phone);
  await inputLabelled(tab, text['form.password']).fill(PASSWORD);
  await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
};

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  // Sign-up, deletion with its proof and two sign-ins: a long walk on a loaded machine.
  test('deleted, then kept by signing in and confirming', { timeout: 180_000 }, async () => {
    const tab = await openPage(app.browser, { locale: 'en', width: 390, height: 844 });
    const { page } = tab;
    const phone = newPhone();
    try {
      await signUpByPhone(app, tab, phone, PASSWORD);
      await switchLocale(page, locale);
      await expectScreen(page, text['account.security']);

      const section = await openSecurityRow(page, text['deleteAccount.title']);
      // The page says the waiting period's days and its last day (the server writes the days into the page).
      const date = new Date(Date.now() + 15 * 86_400_000).toLocaleDateString(locale, { dateStyle: 'long' });
      await section.getByText(say(text, 'deleteAccount.explainDays', { days: 15, date })).waitFor();
      later();
      await section.getByRole('button', { name: text['deleteAccount.submit'] }).click();
      const dialog = page.getByRole('alertdialog', { name: text['deleteAccount.confirmTitle'] });
      await dialog.getByText(say(text, 'deleteAccount.confirmDays', { date })).waitFor();
      await dialog.getByRole('button', { name: text['deleteAccount.submit'] }).click();
      await inputLabelled(tab, text['stepUp.password']).fill(PASSWORD);
      await page.getByRole('button', { name: text['stepUp.byPassword'] }).click();
      await page.getByText(text['signIn.accountDeleted']).waitFor({ timeout: 20_000 });
      expect((await passwordLogin(phone)).status).toBe(403);

      // Signing in: the account is waiting; the way out leaves it so.
      await signInWithPassword(tab, text, phone);
      const panel = page.getByRole('region', { name: text['keepAccount.title'] });
      await panel.waitFor({ timeout: 20_000 });
      const keep = panel.getByRole('button', { name: text['keepAccount.keep'] });
      const leave = panel.getByRole('button', { name: text['keepAccount.leave'] });
      for (const target of [keep, leave]) expect((await target.boundingBox())?.height).toBeGreaterThanOrEqual(44);
      expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, { path: `${import.meta.dirname}/screenshots/keep-account.${locale}.390.png` });
      await leave.click();
      await page.getByRole('tab', { name: text['signIn.tabPassword'] }).waitFor();
      expect((await passwordLogin(phone)).status).toBe(403);

      // Again, and this time kept: signed in, with the account centre as before.
      await signInWithPassword(tab, text, phone);
      await panel.getByRole('button', { name: text['keepAccount.keep'] }).click();
      await expectScreen(page, text['account.profile']);
      expect((await passwordLogin(phone)).status).toBe(200);
    } finally {
      await tab.close();
    }
  });
});
