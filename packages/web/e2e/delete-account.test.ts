/**
 * Deleting one's account in the account centre, in both languages on a phone and a desktop: what goes
 * is said (here at once: no waiting period), a last confirmation (Cancel keeps everything), a fresh proof when the sign-in is no longer
 * recent, then the visitor lands signed out on the sign-in screen with a notice, and the account is gone
 * (its number and password sign in no more, another device is signed out).
 */
import { routes } from '@edupass/protocol';
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
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

// A sign-in is a proof for a minute; `later()` moves the server's clock past it, so the deletion meets
// the step-up panel, and the proof given there stays fresh however slowly the deletion follows it.
const { app, later } = withStepUpApp(60);

const newPhone = phoneNumbers('1573');
const PASSWORD = 'Heron2718q';

const signInByPassword = (phone: string) => passwordSignInAnswer(app, phone, PASSWORD);

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  test.each(VIEWPORTS)('$name: confirm, prove, deleted and signed out everywhere', async ({ width, height }) => {
    const tab = await openPage(app.browser, { locale: 'en', width, height });
    const { page } = tab;
    const phone = newPhone();
    try {
      await signUpByPhone(app, tab, phone, PASSWORD);
      await switchLocale(page, locale);
      await expectScreen(page, text['account.security']);
      const other = await signInByPassword(phone);
      expect(other.status).toBe(200);
      const otherToken = ((await other.json()) as { auth: { token: { access: { token: string } } } }).auth.token.access
        .token;

      const section = await openSecurityRow(page, text['deleteAccount.title']);
      // No waiting period on this server (ACCOUNT_DELETION_GRACE_DAYS=0): the page says it is at once, not "if any"
      // (keep-account.test.ts reads the days and the last day).
      expect(app.server.config.accountDeletionGraceDays).toBe(0);
      await section.getByText(text['deleteAccount.explainAtOnce']).waitFor();
      // Cancel keeps everything.
      await section.getByRole('button', { name: text['deleteAccount.submit'] }).click();
      const dialog = page.getByRole('alertdialog', { name: text['deleteAccount.confirmTitle'] });
      await dialog.getByText(text['deleteAccount.confirmAtOnce']).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: text['confirm.cancel'] }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await signInByPassword(phone)).status).toBe(200);

      // Go ahead: the sign-in is no longer recent, so the password is asked first.
      later();
      await section.getByRole('button', { name: text['deleteAccount.submit'] }).click();
      await dialog.getByRole('button', { name: text['deleteAccount.submit'] }).click();
      await inputLabelled(tab, text['stepUp.password']).fill(PASSWORD);
      await page.getByRole('button', { name: text['stepUp.byPassword'] }).click();

      await page.getByText(text['signIn.accountDeleted']).waitFor({ timeout: 20_000 });
      expect(new URL(page.url()).pathname).toBe('/');
      await keepScreenshot(page, { path: `${import.meta.dirname}/screenshots/account-deleted.${locale}.${width}.png` });
      expect((await signInByPassword(phone)).status).not.toBe(200);
      const profile = await fetch(`${app.server.url}${routes.getProfile.path}`, {
        headers: { authorization: `Bearer ${otherToken}` },
      });
      expect(profile.status).toBe(403);
    } finally {
      await tab.close();
    }
  });
});
