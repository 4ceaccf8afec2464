/**
 * E-mail accounts in the browser, in Chinese and in English: an account with an e-mail and no phone
 * resets its password by a code to its e-mail, signs in by an e-mail code, and changes its address in
 * the account centre (the page shows it masked; an old sign-in is asked to confirm it is you first).
 * Codes come from the dev outbox; the pages stay clean under axe.
 */

import { A, nextEmail, PID, signUpByEmail } from '@edupass/test-kit/accounts';
import { describe, expect, test } from 'vitest';
import en from '../src/i18n/locales/en.ts';
import { inputLabelled, newCodeFor, openSecurityRow } from './support/account-steps.ts';
import { withStepUpApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

const { app, later } = withStepUpApp(300);

/** How the page masks an address (ui/mask-email.ts), for finding it on the page. */
const masked = (email: string) => `${email.slice(0, 2)}****${email.slice(email.indexOf('@'))}`;
const NEW_PASSWORD = 'Marten5772x';

/** A password sign-in over HTTP, beside the page: whether the server now takes the password for the address. */
const passwordLogin = (identity: string, password: string) =>
  fetch(`${app.server.url}${A}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identity, password, pid: PID }),
  });

for (const { locale, text } of LOCALES) {
  describe(`e-mail accounts (${locale})`, () => {
    test('reset by e-mail, sign in by e-mail code, change the e-mail in the account centre', async () => {
      const account = await signUpByEmail(app.server);
      const tab = await openPage(app.browser, { locale });
      const { page } = tab;
      const input = (label: string) => inputLabelled(tab, label);
      try {
        // Forgot the password: the reset screen, by e-mail.
        await page.goto(app.server.url);
        await expectScreen(page, text['signIn.title']);
        await page.getByRole('tab', { name: text['signIn.tabPassword'] }).click();
        // An e-mail typed as the identity: the reset opens on e-mail.
        await input(text['form.identity']).fill(account.email);
        await page.getByRole('link', { name: text['signIn.forgot'] }).click();
        await expectScreen(page, text['reset.title']);
        await page.getByRole('tab', { name: text['reset.byEmail'], selected: true }).waitFor();
        await page.getByText(text['reset.introEmail']).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await input(text['form.email']).fill(account.email);
        const signUpCode = await app.server.lastCode(account.email);
        await page.getByRole('button', { name: text['code.send'] }).click();
        await input(text['form.code']).fill(await newCodeFor(app, account.email, signUpCode));
        await input(text['form.newPassword']).fill(NEW_PASSWORD);
        await input(text['form.confirmPassword']).fill(NEW_PASSWORD);
        await page.getByRole('button', { name: text['reset.submit'] }).click();
        await page.getByText(text['signIn.resetDone']).waitFor();
        expect((await passwordLogin(account.email, NEW_PASSWORD)).status).toBe(200);

        // Sign in by a code to the e-mail.
        const resetCode = await app.server.lastCode(account.email);
        await page.getByRole('tab', { name: text['signIn.tabEmail'] }).click();
        await page.getByText(text['signIn.emailNote']).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await input(text['form.email']).fill(account.email);
        await page.getByRole('button', { name: text['code.send'] }).click();
        await input(text['form.code']).fill(await newCodeFor(app, account.email, resetCode));
        await page.getByLabel(text['agree.prefix']).check();
        await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
        await expectScreen(page, text['profile.title']);

        // The account centre shows the e-mail masked; an old sign-in confirms it is you, then the change.
        await page.getByRole('link', { name: text['account.security'] }).click();
        await expectScreen(page, text['account.security']);
        await openSecurityRow(page, text['email.title']);
        await page.getByText(text['email.bound'].replace('{email}', masked(account.email))).waitFor();
        expect(await page.getByText(account.email).count()).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
        later();
        const next = nextEmail();
        const region = page.getByRole('region', { name: text['email.title'] });
        await input(text['email.new']).fill(next);
        await region.getByRole('button', { name: text['code.send'] }).click();
        const stepUp = page.getByRole('region', { name: text['stepUp.title'] });
        await stepUp.getByLabel(text['stepUp.password'], { exact: true }).fill(NEW_PASSWORD);
        await stepUp.getByRole('button', { name: text['stepUp.byPassword'] }).click();
        await stepUp.waitFor({ state: 'detached' });
        // The code asked for goes out once it is proven, without another tap.
        await region.getByLabel(text['form.code']).fill(await newCodeFor(app, next));
        await region.getByRole('button', { name: text['email.changeSubmit'] }).click();
        await page.getByText(text['email.changeDone']).waitFor();
        await page.getByText(text['email.bound'].replace('{email}', masked(next))).waitFor();
        expect((await passwordLogin(next, NEW_PASSWORD)).status).toBe(200);
        // Ending the other sessions (that sign-in's among them) asks first, as after a phone change.
        await region.getByRole('button', { name: text['stepUp.endOthers'] }).click();
        const dialog = page.getByRole('alertdialog');
        await dialog.getByRole('button', { name: text['stepUp.endOthers'] }).click();
        await page.getByText(text['stepUp.endOthersDone']).waitFor();
        await dialog.waitFor({ state: 'detached' });
        expect(tab.errors).toEqual([]);
      } finally {
        await tab.close();
      }
    });
  });
}

test('an e-mail with no account: the send looks the same, and the code is refused as a wrong one', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const unknown = nextEmail();
  try {
    await page.goto(app.server.url);
    await page.getByRole('tab', { name: 'E-mail code' }).click();
    await inputLabelled(tab, 'E-mail address').fill(unknown);
    await page.getByRole('button', { name: 'Get code' }).click();
    await page.getByText(`We sent a code to ${unknown}.`).waitFor();
    expect(await app.server.lastCode(unknown)).toBeUndefined();
    await inputLabelled(tab, 'Verification code').fill('123456');
    await page.getByLabel('I have read and agree to').check();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // While the resend waits, the wrong code is said without "ask for a new one".
    await page.getByText(en.text['code.wrongWhileWaiting'], { exact: true }).waitFor();
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});
