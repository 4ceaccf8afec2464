/**
 * A pupil's login cards in the account centre, on a phone (390×844), in both languages. Before the
 * pupil chooses a password of their own (the forced first change), the password screen says what
 * will happen to the card: it stops working, or (the school chose "cards keep working") it keeps
 * working and where to stop it. Under "Sign-in & security" → "Login cards" the pupil sees the live card
 * (printed when, for which class) and stops it: the card's QR code then no longer signs in. Each
 * screen is axe clean with touch targets ≥ 44 px; screenshots in e2e/screenshots.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '@edupass/protocol';
import { client, signUp, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { inputLabelled, openSecurityRow } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { acceptAgreements, signInWithPassword } from './support/story-steps.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
const app = withApp();
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

const shot = async (page: Page, name: string) => {
  await page.evaluate(() => document.fonts.ready);
  await keepScreenshot(page, { path: join(SHOTS, `${name}.png`), fullPage: true });
};

for (const { locale, text } of LOCALES) {
  test(`${locale}: the password screen says what happens to the card; the pupil sees the card and stops it`, async () => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const admin = await signUp(server);
    const schoolId = steps.ok<{ id: number }>(
      await call(
        'POST',
        routes.addSchool.path,
        { name: `启明小学 ${locale}`, admin_user_id: admin.userId },
        { token: await steps.operatorToken() },
      ),
    ).id;
    const teacher = await steps.approvedTeacher(schoolId);
    const className = '二年级三班';
    const classId = await steps.createClass(teacher, schoolId, className);
    const [pupil] = await steps.createPupils(teacher, classId, ['陈小雨']);
    if (!pupil) throw new Error('no pupil');
    const printCard = async () =>
      badgeOf(decodeCardQrCodes((await steps.cardSheet(teacher, classId, 'zh-CN')).html)[0] ?? '');
    const signsIn = async (badge: string) =>
      (await call('POST', routes.signInByBadge.path, { badge }, { headers: TOKEN_SET_HEADERS })).status === 200;
    const first = await printCard();

    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      await page.goto(server.url);
      // On the card's password the account centre opens at the form for a password of the pupil's own.
      await signInWithPassword(tab, text, pupil.username, pupil.password);
      // A child waiting for a guardian meets no agreements gate: the guardian decides (child-screens.test.ts).
      await expectScreen(page, text['account.security']);

      // The forced first change: before typing anything, the pupil reads that the card will stop working.
      const passwordForm = page.getByRole('region', { name: text['password.title'], exact: true });
      await passwordForm.waitFor();
      const cardWarning = passwordForm.getByTestId('cards-after-password');
      await expect.poll(() => cardWarning.textContent()).toBe(text['password.cardStops']);
      await page.waitForLoadState('networkidle');
      await expectCleanScreen(page, 'password form, card stops');
      await shot(page, `pupil-cards-password-stops.${locale}.390`);

      // The school's admin chooses, on the school's page, that cards keep working.
      await inPage(app.browser, { locale, ...PHONE }, async (adminTab) => {
        const adminPage = adminTab.page;
        await adminPage.goto(server.url);
        await signInWithPassword(adminTab, text, admin.phone, admin.password);
        await acceptAgreements(adminPage, text);
        await adminPage.goto(`${server.url}/teach/schools/${schoolId}`);
        const setting = adminPage.getByRole('region', { name: text['teach.cardsTitle'] });
        await setting.waitFor();
        expect(await setting.getByRole('radio', { name: text['teach.cardsStop'] }).isChecked()).toBe(true);
        await setting.getByRole('radio', { name: text['teach.cardsKeep'] }).check();
        await setting.getByRole('button', { name: text['teach.cardsSave'] }).click();
        await setting.getByText(text['teach.cardsSaved']).waitFor();
        await adminPage.waitForLoadState('networkidle');
        await expectCleanScreen(adminPage, 'school cards setting');
        await shot(adminPage, `pupil-cards-school-setting.${locale}.390`);
        expect(adminTab.errors).toEqual([]);
      });

      // The teacher prints a new card: the password screen says it keeps working, with the way to
      // stop it; after the change the card still signs in.
      const second = await printCard();
      await page.goto(`${server.url}/account/security/password`);
      await passwordForm.waitFor();
      await passwordForm.getByText(text['password.cardKeeps']).waitFor();
      await passwordForm.getByRole('link', { name: text['cards.title'] }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectCleanScreen(page, 'password form, card keeps working');
      await shot(page, `pupil-cards-password-keeps.${locale}.390`);
      await inputLabelled(tab, text['password.old']).fill(pupil.password);
      await inputLabelled(tab, text['form.newPassword']).fill('Kite2026own');
      await inputLabelled(tab, text['form.confirmPassword']).fill('Kite2026own');
      await page.getByRole('button', { name: text['password.submit'] }).click();
      await page.getByText(text['password.chooseOwn']).waitFor({ state: 'detached' });
      expect(await signsIn(second)).toBe(true);
      // The new card replaced the first one.
      expect(await signsIn(first)).toBe(false);

      // With a password of their own, "Login cards": the live card, printed today for the class, and
      // "Stop this card" (44 px).
      await page.locator('.back-link').click();
      await page.locator('[data-row="cards"]').getByText(text['security.cardsState'].replace('{count}', '1')).waitFor();
      await page.waitForLoadState('networkidle');
      await expectCleanScreen(page, 'security list with the cards row');
      await shot(page, `pupil-cards-security-row.${locale}.390`);
      const cards = await openSecurityRow(page, text['cards.title']);
      const card = cards.locator('.device');
      await expect.poll(() => card.count()).toBe(1);
      expect(await card.textContent()).toContain(className);
      await page.waitForLoadState('networkidle');
      await expectCleanScreen(page, 'cards list');
      await shot(page, `pupil-cards-list.${locale}.390`);

      // Stopping asks first, then the card's QR code no longer signs in.
      expect(await signsIn(second)).toBe(true);
      await cards.getByRole('button', { name: text['cards.stop'] }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText(text['cards.stopBody']).waitFor();
      await expectCleanScreen(page, 'stop dialog');
      await shot(page, `pupil-cards-stop-dialog.${locale}.390`);
      await dialog.getByRole('button', { name: text['cards.stop'] }).click();
      await cards.getByText(text['cards.stopped']).waitFor();
      await cards.getByText(text['cards.none']).waitFor();
      expect(await signsIn(second)).toBe(false);
      await shot(page, `pupil-cards-stopped.${locale}.390`);

      expect(tab.errors).toEqual([]);
    });
  });
}
