/**
 * The teacher area and the login cards in Chromium, in both languages on a phone and a desktop: a
 * teacher approved by an operator (admin API) signs in, reaches "Teaching" from the account centre,
 * opens a class, pastes 30 Chinese names, creates the pupils and opens their card sheet (30 QR codes).
 * A pupil signs in at a second browser by the first card's QR code — read from a screenshot of the
 * rendered card with jsQR, not from the server's data — and another by username and password. The
 * teacher adds a co-teacher; a reset makes the old card fail (a plain message, a way to the password
 * sign-in); a move by the co-teacher to their class leaves the first teacher's page for that pupil
 * not found. Each new screen axe-clean, screenshots kept under e2e/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ClassDetail, routes } from '@edupass/protocol';
import { client, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { CHINESE_NAMES, eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { decodeQrPixels } from '@edupass/test-kit/qr-cards';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { beforeAll, expect, test } from 'vitest';
import { inputLabelled } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { acceptAgreements, checkScreen, say, signInWithPassword } from './support/story-steps.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
const app = withApp();
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** The QR code in a screenshot of the element, decoded (jsQR over the PNG's pixels). */
const decodeQrIn = async (page: Page, selector: string) => {
  const png = PNG.sync.read(await page.locator(selector).first().screenshot());
  const code = decodeQrPixels(new Uint8ClampedArray(png.data), png.width, png.height);
  if (code === null) throw new Error('the card QR code did not decode from its screenshot');
  return code;
};

const CASES = LOCALES.flatMap(({ locale, text }) => VIEWPORTS.map((viewport) => ({ locale, text, viewport })));

test.each(CASES)(
  'a teacher creates 30 pupils and their cards; pupils sign in by QR code and by password; a reset ends the card, a move the access ($locale, $viewport.name)',
  async ({ locale, text, viewport }) => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const schoolId = await steps.addSchool(`Bright ${locale} ${viewport.name}`);
    const [teacher, coTeacher] = await Promise.all([steps.approvedTeacher(schoolId), steps.approvedTeacher(schoolId)]);
    const otherClassId = await steps.createClass(coTeacher, schoolId, '四年级一班');
    const shot = (screen: string) => `teacher-${screen}.${locale}.${viewport.name}`;
    const pageOptions = { locale, width: viewport.width, height: viewport.height };
    const className = `三年级${viewport.width}班`;

    await inPage(app.browser, pageOptions, async (tab) => {
      const { page } = tab;
      await page.goto(server.url);
      await signInWithPassword(tab, text, teacher.phone, teacher.password);
      await acceptAgreements(page, text);
      await page.getByRole('link', { name: text['account.teaching'] }).click();
      await expectScreen(page, text['teach.title']);
      await page.getByRole('heading', { name: text['teach.openClass'] }).waitFor();
      await checkScreen(page, shot('classes'));

      // A class, and 30 pupils pasted, previewed and created.
      await inputLabelled(tab, text['teach.className']).fill(className);
      await page.getByLabel(text['teach.grade'], { exact: true }).selectOption({ label: text['grade.3'] });
      await page.getByRole('button', { name: text['teach.create'] }).click();
      await expectScreen(page, className);
      const classId = Number(/\/teach\/classes\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
      await page.getByLabel(text['teach.names'], { exact: true }).fill(CHINESE_NAMES.join('\n'));
      await page.getByRole('button', { name: text['teach.preview'] }).click();
      await page.getByText(say(text, 'teach.previewCount', { count: 30 })).waitFor();
      await page.getByRole('button', { name: say(text, 'teach.createPupils', { count: 30 }) }).click();
      const details = page.getByRole('table', { name: text['teach.credentials'] });
      await details.waitFor({ timeout: 60_000 });
      expect(await details.locator('tbody tr').count()).toBe(30);
      await checkScreen(page, shot('pupils-created'));

      // The card sheet: 30 cards, each with a QR code.
      await page.getByRole('button', { name: say(text, 'teach.printThese', { count: 30 }) }).click();
      const sheetLink = page.getByRole('link', { name: say(text, 'teach.openSheet', { count: 30 }) });
      const [sheet] = await Promise.all([page.context().waitForEvent('page'), sheetLink.click()]);
      await sheet.locator('.card').nth(29).waitFor();
      expect(await sheet.locator('.card .qr svg').count()).toBe(30);
      await keepScreenshot(sheet, { path: join(SHOTS, `${shot('card-sheet')}.png`), fullPage: true });
      const firstName = (await sheet.locator('.card .name').first().textContent()) ?? '';
      const cardLink = await decodeQrIn(sheet, '.card .qr');
      await sheet.close();
      expect(cardLink.startsWith(`${server.url}/badge#`)).toBe(true);

      // A pupil signs in at another browser by showing the card.
      await inPage(app.browser, pageOptions, async (pupil) => {
        await pupil.page.goto(cardLink);
        await expectScreen(pupil.page, text['account.security']);
        expect(new URL(pupil.page.url()).hash).toBe('');
        expect(pupil.errors).toEqual([]);
      });
      // Another by the username and password the teacher was shown.
      const [, username, password] = await details.locator('tbody tr').nth(1).locator('td').allTextContents();
      await inPage(app.browser, pageOptions, async (pupil) => {
        await pupil.page.goto(server.url);
        await signInWithPassword(pupil, text, username ?? '', password ?? '');
        await expectScreen(pupil.page, text['account.security']);
        // The teacher's password is for the first sign-in: the account centre opens at the form for one
        // of the pupil's own, whatever page was asked for, until it is chosen (the server answers
        // nothing else meanwhile).
        const ask = pupil.page.getByText(text['password.chooseOwn']);
        await ask.waitFor();
        await pupil.page.goto(`${server.url}/account/privacy`);
        await ask.waitFor();
        await pupil.page.waitForURL(/\/account\/security\/password$/);
        await pupil.page.getByRole('region', { name: text['password.title'] }).waitFor();
        await checkScreen(pupil.page, shot('pupil-chooses-password'));
        await pupil.page.getByRole('region', { name: text['password.title'] }).waitFor();
        await inputLabelled(pupil, text['password.old']).fill(password ?? '');
        await inputLabelled(pupil, text['form.newPassword']).fill('Kite2026own');
        await inputLabelled(pupil, text['form.confirmPassword']).fill('Kite2026own');
        await pupil.page.getByRole('button', { name: text['password.submit'] }).click();
        await ask.waitFor({ state: 'detached' });
        expect(pupil.errors).toEqual([]);
      });

      // A co-teacher of the school, added by account ID.
      await inputLabelled(tab, text['teach.coTeacher']).fill(String(coTeacher.userId));
      await page.getByRole('button', { name: text['teach.addCoTeacher'] }).click();
      await page.getByText(text['teach.coTeacherAdded']).waitFor();

      // A pupil with an account of their own asks to join by the class's code; one is refused, one approved.
      await page.getByRole('button', { name: text['teach.newJoinCode'] }).click();
      const joinCode = (await page.locator('.join-code strong').textContent()) ?? '';
      const [joining, refused] = await Promise.all([signUp(server), signUp(server)]);
      for (const account of [joining, refused]) {
        steps.ok(await call('POST', routes.joinClass.path, { join_code: joinCode }, { token: account.token }), 204);
      }
      await page.reload();
      await expectScreen(page, className);
      const requests = page
        .locator('.teach-row')
        .filter({ has: page.getByRole('button', { name: text['teach.refuse'] }) });
      await expect.poll(() => requests.count()).toBe(2);
      await checkScreen(page, shot('join-requests'));
      await requests.first().getByRole('button', { name: text['teach.refuse'] }).click();
      await expect.poll(() => requests.count()).toBe(1);
      await requests.first().getByRole('button', { name: text['teach.approve'] }).click();
      await expect.poll(() => requests.count()).toBe(0);
      const joined = (await steps.classDetail(teacher.token, classId)).body as ClassDetail;
      const statusOf = (userId: number) => joined.members.find((m) => m.user_id === userId)?.status;
      expect([statusOf(joining.userId), statusOf(refused.userId)].sort()).toEqual(['active', undefined]);

      // A reset of the first card's pupil: the old card no longer signs in.
      await page.getByLabel(say(text, 'teach.select', { name: firstName }), { exact: true }).check();
      await page.getByRole('button', { name: text['teach.reset'], exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: text['teach.reset'], exact: true }).click();
      await page.getByText(say(text, 'teach.resetDone', { count: 1 })).waitFor();
      await inPage(app.browser, pageOptions, async (pupil) => {
        await pupil.page.goto(cardLink);
        await expectScreen(pupil.page, text['badge.revokedTitle']);
        await checkScreen(pupil.page, shot('badge-revoked'));
        await pupil.page.getByRole('link', { name: text['badge.toSignIn'] }).click();
        await expectScreen(pupil.page, text['signIn.title']);
      });

      // The co-teacher moves that pupil to their class: the first teacher's page for the pupil is gone.
      const detail = await steps.classDetail(teacher.token, classId);
      const moved = (detail.body as ClassDetail).members.find((m) => m.name === firstName);
      expect(moved).toBeDefined();
      const userId = moved?.user_id ?? 0;
      await page.getByRole('link', { name: firstName, exact: true }).click();
      await expectScreen(page, firstName);
      await checkScreen(page, shot('pupil'));
      steps.ok(
        await call(
          'POST',
          pathOf(routes.movePupils.path, { id: classId }),
          { user_ids: [userId], to_class_id: otherClassId },
          { token: coTeacher.token },
        ),
        204,
      );
      await page.reload();
      await expectScreen(page, text['teach.pupilNotFound']);
      await checkScreen(page, shot('pupil-not-found'));
      await page.getByRole('link', { name: text['teach.backToClasses'] }).click();
      await expectScreen(page, text['teach.title']);
      expect(tab.errors).toEqual([]);
    });
  },
  300_000,
);

test.each(CASES)(
  "a school admin sees the school's teachers, classes and quota, and approves a teacher who asked ($locale, $viewport.name)",
  async ({ locale, text, viewport }) => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const [admin, asking] = await Promise.all([signUp(server), signUp(server)]);
    const schoolName = `Admin ${locale} ${viewport.name}`;
    const { id: schoolId } = steps.ok<{ id: number }>(
      await call(
        'POST',
        routes.addSchool.path,
        { name: schoolName, admin_user_id: admin.userId, daily_batches: 7 },
        { token: await steps.operatorToken() },
      ),
    );
    const teacher = await steps.approvedTeacher(schoolId);
    await steps.createClass(teacher, schoolId, '五年级三班');
    steps.ok(
      await call('POST', pathOf(routes.requestTeaching.path, { id: schoolId }), {}, { token: asking.token }),
      204,
    );

    await inPage(app.browser, { locale, width: viewport.width, height: viewport.height }, async (tab) => {
      const { page } = tab;
      await page.goto(server.url);
      await signInWithPassword(tab, text, admin.phone, admin.password);
      await acceptAgreements(page, text);
      await page.getByRole('link', { name: text['account.teaching'] }).click();
      await expectScreen(page, text['teach.title']);
      await page.getByRole('link', { name: text['teach.schoolOverview'] }).click();
      await expectScreen(page, schoolName);
      await page.getByText(say(text, 'teach.quota', { used: 0, max: 7 })).waitFor();
      await page.getByText('五年级三班').waitFor();
      await checkScreen(page, `teacher-school.${locale}.${viewport.name}`);

      const pending = page.getByRole('listitem').filter({ hasText: text['teach.pending'] });
      expect(await pending.count()).toBe(1);
      await pending.getByRole('button', { name: text['teach.approve'] }).click();
      await expect.poll(() => page.getByRole('listitem').filter({ hasText: text['teach.pending'] }).count()).toBe(0);
      await page.getByRole('link', { name: text['teach.backToClasses'] }).click();
      await expectScreen(page, text['teach.title']);
      expect(tab.errors).toEqual([]);
    });
    const memberships = steps.ok<{ schools: { id: number; status: string }[] }>(
      await call('GET', routes.eduMemberships.path, undefined, { token: asking.token }),
    );
    expect(memberships.schools).toEqual([expect.objectContaining({ id: schoolId, status: 'approved' })]);
  },
  120_000,
);
