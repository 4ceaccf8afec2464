/**
 * "Sign in again" where the account can give no proof on the page (what it could confirm with cannot
 * be read), for the forms that resume.ts names besides deleting and unbinding
 * (resume-after-sign-in.test.ts): changing the password by a code to the phone (the code send goes on
 * by itself), setting up the authenticator app, and setting a first password. Each comes back to the
 * same form and goes on. Both languages, on a phone; the accounts are made and signed in over the API.
 */
import { join } from 'node:path';
import {
  agreementIdsInEffect,
  PASSWORD,
  signAgreementsInEffect,
  signIn,
  signUp,
  signUpSilently,
} from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { stepUpClock } from '@edupass/test-kit/step-up-server';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import {
  inputLabelled,
  newCodeFor,
  openSignedIn,
  phoneNumbers,
  signInByCode,
  signInByPassword,
} from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const WINDOW = 300;
const { now, later } = stepUpClock(WINDOW);
const app = withApp({ stepUpSeconds: WINDOW }, { now });
const newPhone = phoneNumbers('1586');
const NEW_PASSWORD = 'Plover3141q';
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);
type Text = (typeof LOCALES)[number]['text'];

/** The sign-in is older than the window and the proofs cannot be read: the panel's one way on is to sign in again. */
const onlySignInAgain = async (page: Page) => {
  later();
  await page.route('**/accounts/step-up', (route) => route.abort('connectionrefused'));
};

/** From the step-up panel: "Sign in again" (a screenshot of the panel first), then `signIn` on the sign-in screen. */
const signInAgain = async (tab: TestPage, text: Text, name: string, signInStep: () => Promise<void>) => {
  const { page } = tab;
  const stepUp = page.getByRole('region', { name: text['stepUp.title'] });
  await stepUp.getByText(text['stepUp.signInAgainWhy']).waitFor();
  await expectCleanScreen(page, `${name}: the step-up panel`);
  await keepScreenshot(page, { path: shot(`${name}.390.png`), fullPage: true });
  await page.unroute('**/accounts/step-up');
  await stepUp.getByRole('button', { name: text['stepUp.signInAgain'] }).click();
  await expectScreen(page, text['signIn.title']);
  await signInStep();
};

/** The password form of "Sign-in & security", opened signed in as `session`. */
const passwordForm = async (tab: TestPage, text: Text, session: { token: string; refresh: string }) => {
  await openSignedIn(app, tab, session, '/account/security/password');
  const region = tab.page.getByRole('region', { name: text['password.title'], exact: true });
  await region.waitFor();
  return region;
};

/** A new phone account with a password that has signed the agreements in effect, signed in over the API. */
const accountWithPassword = async () => {
  const phone = newPhone();
  return signUp(app.server, phone, PASSWORD, await agreementIdsInEffect(app.server));
};

for (const { locale, text } of LOCALES) {
  test(`${locale}: changing the password by a phone code goes on after signing in again, the code send included`, async () => {
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    try {
      const account = await accountWithPassword();
      const { phone } = account;
      const region = await passwordForm(tab, text, account);
      await region.getByRole('tab', { name: text['password.byPhone'] }).click();
      await inputLabelled(tab, text['form.phone']).fill(phone);
      await onlySignInAgain(page);
      const previous = await app.server.lastCode(phone);
      await region.getByRole('button', { name: text['code.send'] }).click();
      await signInAgain(tab, text, `resume-password-phone.${locale}`, () =>
        signInByPassword(tab, phone, PASSWORD, text),
      );

      // Back on the same form, on the same tab, with the number: the code is sent without another tap.
      const code = await newCodeFor(app, phone, previous);
      const back = page.getByRole('region', { name: text['password.title'], exact: true });
      await back.waitFor();
      expect(new URL(page.url()).pathname).toBe('/account/security/password');
      expect(await back.getByRole('tab', { name: text['password.byPhone'] }).getAttribute('aria-selected')).toBe(
        'true',
      );
      // Shown grouped 3-4-4.
      expect((await inputLabelled(tab, text['form.phone']).inputValue()).replace(/\s/g, '')).toBe(phone);

      await inputLabelled(tab, text['form.code']).fill(code);
      await inputLabelled(tab, text['form.newPassword']).fill(NEW_PASSWORD);
      await inputLabelled(tab, text['form.confirmPassword']).fill(NEW_PASSWORD);
      await back.getByRole('button', { name: text['password.submit'] }).click();
      await back.getByText(text['password.changedOthersOut']).waitFor();
      await expectCleanScreen(page, 'the password changed by a phone code');
      // The new password is the account's.
      await signIn(app.server, phone, NEW_PASSWORD);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test(`${locale}: setting up the authenticator app goes on after signing in again`, async () => {
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    try {
      const account = await accountWithPassword();
      await openSignedIn(app, tab, account, '/account/security/two-step');
      const region = page.getByRole('region', { name: text['mfa.title'], exact: true });
      await region.waitFor();
      await onlySignInAgain(page);
      await region.getByRole('button', { name: text['mfa.appSetUp'] }).click();
      await signInAgain(tab, text, `resume-app-setup.${locale}`, () =>
        signInByPassword(tab, account.phone, PASSWORD, text),
      );

      // Back on two-step verification, the set-up is open without another tap: the key, then a code from it.
      const back = page.getByRole('region', { name: text['mfa.title'], exact: true });
      const key = back.locator('code.secret');
      await key.waitFor();
      expect(new URL(page.url()).pathname).toBe('/account/security/two-step');
      const secret = (await key.innerText()).trim();
      await back.getByLabel(text['mfa.appCode']).fill(totpCode(secret, stepAt(now())));
      await back.getByRole('button', { name: text['mfa.appConfirm'] }).click();
      const codes = back.getByRole('list', { name: text['mfa.recovery'] }).getByRole('listitem');
      await expect.poll(() => codes.count(), { timeout: 30_000 }).toBe(10);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test(`${locale}: setting a first password goes on after signing in again`, async () => {
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    try {
      // An account made by a code sign-in: a phone and no password.
      const account = await signUpSilently(app.server, newPhone());
      await signAgreementsInEffect(app.server, account.token);
      const region = await passwordForm(tab, text, account);
      await region.getByText(text['password.none']).waitFor();
      await inputLabelled(tab, text['form.newPassword']).fill(NEW_PASSWORD);
      await inputLabelled(tab, text['form.confirmPassword']).fill(NEW_PASSWORD);
      await onlySignInAgain(page);
      await region.getByRole('button', { name: text['password.setSubmit'] }).click();
      await signInAgain(tab, text, `resume-first-password.${locale}`, () =>
        signInByCode(app, tab, account.phone, text),
      );

      // Back on the same form: it says why the password is asked once more (it is never kept), and sets it.
      const back = page.getByRole('region', { name: text['password.title'], exact: true });
      await back.getByText(text['password.typeAgain']).waitFor();
      expect(new URL(page.url()).pathname).toBe('/account/security/password');
      await inputLabelled(tab, text['form.newPassword']).fill(NEW_PASSWORD);
      await inputLabelled(tab, text['form.confirmPassword']).fill(NEW_PASSWORD);
      await back.getByRole('button', { name: text['password.setSubmit'] }).click();
      await back.getByText(text['password.setDone']).waitFor();
      await signIn(app.server, account.phone, NEW_PASSWORD);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}
