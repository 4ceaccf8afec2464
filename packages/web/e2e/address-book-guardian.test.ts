/**
 * A guardian from a school's WeCom address book, in Chromium at phone width, in zh-CN and en: the
 * school's book (the test kit's stand-in) is synced and confirmed, which makes the pupil's account and
 * a pending invite for the phone the school recorded; the guardian signs in by SMS with that phone,
 * finds the school's invite in the guardian area, gets a code by SMS to that phone, confirms, and sees
 * the child. Before confirming, the guardian sees nothing of the child.
 */
import { routes } from '@edupass/protocol';
import { signUpAgreed } from '@edupass/test-kit/accounts';
import { schoolBook } from '@edupass/test-kit/address-book-school';
import { startSchoolBook } from '@edupass/test-kit/address-book-steps';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { client } from '@edupass/test-kit/http-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inputLabelled, newCodeFor, signInBySms, switchLocale } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const WAIT = { timeout: 60_000 };
const EN = LOCALES[1].text;

let app: AppUnderTest;
let school: Awaited<ReturnType<typeof startSchoolBook>>;
const book = schoolBook({ name: '家校通小学', grades: 1, classesPerGrade: 1, pupilsPerClass: 4, mobilePrefix: '1576' });

beforeAll(async () => {
  app = await startApp();
  school = await startSchoolBook(app.server, client(app.server.url), 'wecom', book);
  const job = await school.sync();
  expect(job.counts).toMatchObject({ pupils_created: 4, guardians_pending: book.guardians.length });
  school.edu.ok(await school.confirm(job.id));
});
afterAll(async () => {
  await school?.peer.close();
  await app?.close();
});

describe.each(LOCALES.map((l, i) => ({ ...l, pupil: i })))('$locale, phone', ({ locale, text, pupil }) => {
  test('a guardian the school listed confirms by SMS and then sees the child', async () => {
    const child = book.pupils[pupil] as (typeof book.pupils)[number];
    const listed = book.guardians.find((g) => g.pupilId === child.id && g.mobile !== null);
    const phone = listed?.mobile as string;
    const guardian = await signUpAgreed(app.server, phone);
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    try {
      const { page } = tab;
      await page.goto(`${app.server.url}/guardian`);
      await signInBySms(app, tab, phone);
      // Signed in before the language changes: a reload while the sign-in is still under way loses it.
      await expectScreen(page, EN['guardian.title']);
      await switchLocale(page, locale);
      await page.goto(`${app.server.url}/guardian`);
      await expectScreen(page, text['guardian.title']);
      const invite = page.getByTestId('school-invite');
      await invite.getByText(child.name).waitFor(WAIT);
      // Nothing of the child before the guardian confirms.
      const before = await client(app.server.url)<{ children: unknown[] }>(
        'GET',
        routes.guardianChildren.path,
        undefined,
        { token: guardian.token },
      );
      expect(before.body.children).toEqual([]);
      await expectCleanScreen(page, '/guardian (a school lists the guardian)');

      const previous = await app.server.lastCode(phone);
      await invite.getByRole('button', { name: text['code.send'] }).click();
      await inputLabelled(tab, text['form.code']).fill(await newCodeFor(app, phone, previous));
      await invite.getByRole('button', { name: text['guardian.inviteConfirm'] }).click();
      await page.getByText(text['guardian.inviteLinked'].replace('{child}', child.name)).waitFor(WAIT);
      await page.getByText(child.name).first().waitFor(WAIT);
      await expect.poll(() => page.getByTestId('school-invite').count()).toBe(0);
      await keepScreenshot(page, {
        path: `${import.meta.dirname}/screenshots/school-invite.${locale}.${PHONE.width}.png`,
      });
    } finally {
      await tab.close();
    }
  }, 180_000);
});
