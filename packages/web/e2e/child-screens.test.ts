/**
 * A school's first week, as an 8-year-old sees it on a classroom tablet (768×1024) and a phone
 * (390×844), in both languages. A teacher types 王子涵 and prints the card; the child scans it: no
 * agreements gate (the school's agreement covers its pupils), no usage-report sheet (a child under 14
 * is never asked), greeted by the name the teacher typed, and the screen for a password of their own
 * has no phone-code tab (the child has no phone), says what to do without red, and says after the
 * change that other devices need a new sign-in. The card's username is letters and digits; the
 * sign-in screen a card leads to offers that way alone and asks for the "Username" with a keyboard
 * that neither corrects nor capitalises. A pupil of a school without an agreement, waiting for a guardian, sees first what
 * waits, how to ask and what happens if nobody agrees, and not the profile's fields. Every screen is
 * axe clean, fits the width, has touch targets of 44 px; screenshots in e2e/screenshots.
 */
import type { PupilCredentials } from '@edupass/protocol';
import { client } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { inputLabelled } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage, type TestPage } from './support/pages.ts';
import { checkScreen, expectTappable, say, type Text } from './support/story-steps.ts';
import { expectCleanScreen } from './support/touch.ts';

const app = withApp();

const DEVICES = [
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'phone', width: 390, height: 844 },
];
const CASES = LOCALES.flatMap(({ locale, text }) => DEVICES.map((device) => ({ locale, text, device })));
const NAME = '王子涵';

/** Nothing asks about usage reports, now or once the page has settled. */
const expectNoReportSheet = async (page: Page) => {
  await page.waitForLoadState('networkidle');
  expect(await page.locator('section.consent').count()).toBe(0);
};

/** On the sign-in screen a card leads to: the "Username" field, typed as written, and the password. */
const signInAsPupil = async (tab: TestPage, text: Text, username: string, password: string) => {
  const { page } = tab;
  await page.goto(`${app.server.url}/sign-in?for=pupil`);
  await expectScreen(page, text['signIn.title']);
  const field = inputLabelled(tab, text['form.cardUsername']);
  await field.waitFor();
  expect(
    await field.evaluate((input) => [
      input.getAttribute('autocapitalize'),
      input.getAttribute('autocorrect'),
      input.getAttribute('spellcheck'),
      input.getAttribute('inputmode'),
      input.getAttribute('type'),
    ]),
  ).toEqual(['none', 'off', 'false', 'text', 'text']);
  await page.getByText(text['form.cardUsernameHint']).waitFor();
  // The card's way alone (no code tabs the child has no phone or e-mail for), and no report sheet.
  expect(await page.getByRole('tab').count()).toBe(0);
  await page.getByRole('link', { name: text['signIn.otherWays'] }).waitFor();
  await expectNoReportSheet(page);
  await field.fill(username);
  await inputLabelled(tab, text['form.password']).fill(password);
  await expectTappable(page.getByRole('button', { name: text['signIn.submit'], exact: true }), 'sign in');
  return page.getByRole('button', { name: text['signIn.submit'], exact: true });
};

test.each(CASES)(
  "a pupil's card: no gate, no report sheet, greeted by name, a password without a phone tab; a pupil waiting for a guardian sees what waits ($locale, $device.name)",
  async ({ locale, text, device }) => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const shot = (screen: string) => `child-${screen}.${locale}.${device.name}`;
    const options = { locale, width: device.width, height: device.height, consent: 'unset' as const };

    // The school has its agreement; the teacher makes 王子涵 in a second-grade class and prints the card.
    const schoolId = await steps.addSchool(`启明小学 ${locale} ${device.name}`);
    const teacher = await steps.approvedTeacher(schoolId);
    const classId = await steps.createClass(teacher, schoolId, '二年级一班');
    const [pupil] = await steps.createPupils(teacher, classId, [NAME]);
    if (!pupil) throw new Error('no pupil');
    // Typed on the letters' layer: no underscore, no symbol.
    expect(pupil.username).toMatch(/^[a-z0-9]+$/);
    const cardLink = decodeCardQrCodes((await steps.cardSheet(teacher, classId, 'zh-CN')).html)[0] ?? '';

    await inPage(app.browser, options, async (tab) => {
      const { page } = tab;
      await page.goto(cardLink);
      // Straight to the child's own account, at the form for a password of their own: no "agreements updated".
      await expectScreen(page, text['account.security']);
      expect(await page.getByRole('heading', { name: text['gate.title'] }).count()).toBe(0);
      await page.getByText(say(text, 'account.hello', { name: NAME })).waitFor();
      await expectNoReportSheet(page);

      const form = page.getByRole('region', { name: text['password.title'], exact: true });
      await form.waitFor();
      // No phone, so no tab for a code to one; the instruction is a calm panel, not an error's red.
      expect(await form.getByRole('tab').count()).toBe(0);
      expect(await page.getByText(text['password.byPhone']).count()).toBe(0);
      const ask = page.getByText(text['password.chooseOwn']);
      expect(await ask.getAttribute('class')).toBe('info-panel');
      // Nothing leads away from the form only to come back to it: no "back to the list", no sections.
      expect(await page.getByRole('link', { name: text['security.back'] }).count()).toBe(0);
      expect(await page.getByRole('navigation', { name: text['account.sections'] }).count()).toBe(0);
      await checkScreen(page, shot('first-screen'));
      await expectCleanScreen(page, 'the first screen after the card');
      const submit = form.getByRole('button', { name: text['password.submit'] });
      await expectTappable(submit, 'change password');
      await expectTappable(page.getByRole('button', { name: text['account.signOut'] }), 'sign out');

      await inputLabelled(tab, text['password.old']).fill(pupil.password);
      await inputLabelled(tab, text['form.newPassword']).fill('Kite2026own');
      await inputLabelled(tab, text['form.confirmPassword']).fill('Kite2026own');
      await submit.click();
      await form.getByText(text['password.changedOthersOut']).waitFor();
      await ask.waitFor({ state: 'detached' });
      // Chosen: the way back to the list and the sections are there again.
      await page.getByRole('link', { name: text['security.back'] }).waitFor();
      await page.getByRole('navigation', { name: text['account.sections'] }).waitFor();
      await checkScreen(page, shot('password-chosen'));

      // The home page greets by name, and the privacy page says nothing is recorded of a child.
      await page.goto(`${server.url}/account`);
      await expectScreen(page, text['account.profile']);
      await page.getByText(say(text, 'account.hello', { name: NAME })).waitFor();
      await page.goto(`${server.url}/account/privacy`);
      await page.getByText(text['privacy.dataChild']).waitFor();
      await expectNoReportSheet(page);
      expect(tab.errors).toEqual([]);
    });

    // Next day, by the username on the card: the sign-in screen says "Username", and home again, no gate.
    await inPage(app.browser, options, async (tab) => {
      const submit = await signInAsPupil(tab, text, pupil.username.toUpperCase(), 'Kite2026own');
      await checkScreen(tab.page, shot('sign-in-username'));
      await submit.click();
      await expectScreen(tab.page, text['account.profile']);
      await tab.page.getByText(say(text, 'account.hello', { name: NAME })).waitFor();
      await expectNoReportSheet(tab.page);
      expect(tab.errors).toEqual([]);
    });

    // A school without an agreement: its pupil waits for a guardian, and sees that first.
    const otherSchool = await steps.addSchool(`无协议小学 ${locale} ${device.name}`, undefined, false);
    const otherTeacher = await steps.approvedTeacher(otherSchool);
    const otherClass = await steps.createClass(otherTeacher, otherSchool, '二年级二班');
    const [waiting] = (await steps.createPupils(otherTeacher, otherClass, ['李雨桐'])) as PupilCredentials[];
    if (!waiting) throw new Error('no pupil');
    await steps.pupilSession(waiting);
    await inPage(app.browser, options, async (tab) => {
      const { page } = tab;
      const submit = await signInAsPupil(tab, text, waiting.username, `${waiting.password}Own7`);
      await submit.click();
      // Not covered by a school's agreement, still no legal text meant for adults: the guardian decides.
      await expectScreen(page, text['account.profile']);
      expect(await page.getByRole('heading', { name: text['gate.title'] }).count()).toBe(0);
      const panel = page.getByTestId('consent-waiting');
      await panel.getByRole('heading', { name: text['family.childTitle'] }).waitFor();
      await panel.getByText(text['family.childBody']).waitFor();
      await panel.getByText(text['family.childHow']).waitFor();
      await panel.getByText(text['family.childIfNot'].split('{date}')[0] ?? '').waitFor();
      // First on the page: at the top of the screen, before any field of the profile, which stays folded.
      const top = (await panel.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
      expect(top).toBeLessThan(device.height / 2);
      expect(await inputLabelled(tab, text['profile.fullname']).isVisible()).toBe(false);
      await expectTappable(panel.getByRole('button', { name: text['family.makeLink'] }), 'make a link');
      await expectTappable(page.getByText(text['profile.edit']), 'change my details');
      await page.getByText(say(text, 'account.hello', { name: '李雨桐' })).waitFor();
      await expectNoReportSheet(page);
      await checkScreen(page, shot('waiting-for-guardian'));
      await expectCleanScreen(page, 'a pupil waiting for a guardian');
      await panel.getByRole('button', { name: text['family.makeLink'] }).click();
      expect(await panel.getByTestId('consent-link').inputValue()).toContain('/consent#');
      expect(tab.errors).toEqual([]);
    });
  },
  240_000,
);
