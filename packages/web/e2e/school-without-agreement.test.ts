/**
 * A school with no agreement, lived in Chromium from a fresh server through the product's own screens
 * (the SMS outbox stands in for the phones), zh-CN and en, each on its own server: the operator adds
 * the school in the console, which says what follows without an agreement (pupils under 14 wait for a
 * parent, and are deleted if none agrees in time); a teacher comes in as in teacher-way-in.test.ts,
 * opens 三年级 on a classroom tablet (768×1024) and types three pupils' names; the class page marks
 * each as waiting for a guardian and says why and what the teacher can do. A pupil types the card's
 * username and password and sees first what waits and why, not an adult's form; their mother, on a
 * phone (390×844), signs up, links with the card's guardian code and agrees (her taps and keys
 * counted and bounded); the class page then shows the pupil as agreed. Screens in e2e/screenshots
 * (`no-agreement-…`), the console's in console/e2e/screenshots.
 */
import { join } from 'node:path';
import { nextPhone } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SCREENSHOTS, withConsoleRig } from '../../console/e2e/console-harness.ts';
import { inputLabelled } from './support/account-steps.ts';
import {
  askToTeach,
  CONSOLE,
  chooseOwnPassword,
  hands,
  openClass,
  operatorAddsSchool,
  operatorApproves,
  shownDetails,
  TABLET,
  teacherOpensTeaching,
  WAIT,
} from './support/first-week-steps.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { checkScreen, say, signUpInPage, type Text } from './support/story-steps.ts';
import { PHONE } from './support/touch.ts';

const NAMES = ['王子涵', '李雨桐', '张小雨'];
/** What the mother's hands may take, at most, from the site's first screen to "Thank you". */
const MOTHER_AT_MOST = { taps: 20, keys: 40 };

/** The class page's consent: how many wait (the note, and a mark beside each name), and who is agreed to. */
const expectConsent = async (page: Page, text: Text, waiting: number, agreed: string[]) => {
  const note = page.getByRole('note');
  await note.getByText(say(text, 'teach.consentWaitingCount', { count: waiting })).waitFor(WAIT);
  await note.getByText(text['teach.consentWhy']).waitFor(WAIT);
  await note.getByText(text['teach.consentWhatToDo']).waitFor(WAIT);
  const waitingMark = page.getByText(text['teach.consentWaiting'].split('{date}')[0] ?? '');
  await expect.poll(() => waitingMark.count(), WAIT).toBe(waiting);
  const grantedMarks = page.getByText(text['teach.consentGranted'], { exact: true });
  await expect.poll(() => grantedMarks.count(), WAIT).toBe(agreed.length);
  for (const name of agreed) {
    await page.getByRole('listitem').filter({ hasText: name }).getByText(text['teach.consentGranted']).waitFor(WAIT);
  }
};

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  const rigOf = withConsoleRig();

  test('a school without an agreement: its pupils wait for a parent, the class page and the pupil say so, a mother agrees', async () => {
    const rig = rigOf();
    const { server } = rig;
    const en = locale === 'en';
    const words = CONSOLE[locale];
    const school = en ? 'Riverside Primary School' : '河畔小学';
    const className = en ? 'Year 3 Class 1' : '三年级一班';
    const shot = (screen: string, device = 'tablet') => `no-agreement-${screen}.${locale}.${device}`;
    const teacher = { phone: nextPhone(), password: 'Lantern5821', name: en ? 'Mr Zhao' : '赵老师' };
    const tablet = { locale, ...TABLET };

    // The operator adds the school and records no agreement: the console says plainly what follows.
    const desk = await operatorAddsSchool(rig, locale, school);
    await desk.getByText(words.addedWithoutAgreement(school)).waitFor(WAIT);
    await desk.getByText(words.withoutAgreement).waitFor(WAIT);
    const row = desk.getByRole('row').filter({ has: desk.getByRole('rowheader', { name: school }) });
    await row.getByText(words.noAgreement).waitFor(WAIT);
    await keepScreenshot(desk, {
      path: join(SCREENSHOTS, `console-no-agreement-school.${locale}.png`),
      fullPage: true,
    });

    let details: [string, string, string][] = [];
    let guardianCodes: string[] = [];
    await inPage(rig.browser, tablet, async (tab) => {
      const { page } = tab;
      // The teacher's way in, approved by the operator; a class of 三年级 (under 14) with three pupils typed.
      await askToTeach(rig, tab, text, teacher, { name: school, search: en ? 'Riverside' : '河畔' }, shot);
      await operatorApproves(desk, locale, teacher.phone, school);
      await desk.close();
      await page.reload();
      await openClass(tab, text, className);
      await page.getByLabel(text['teach.names'], { exact: true }).fill(NAMES.join('\n'));
      await page.getByRole('button', { name: text['teach.preview'] }).click();
      await page.getByRole('button', { name: say(text, 'teach.createPupils', { count: NAMES.length }) }).click();
      details = await shownDetails(page, text['teach.credentials']);
      expect(details.map(([name]) => name)).toEqual(NAMES);

      // Each pupil waits for a guardian; above the list, why, and what the teacher can do.
      await expectConsent(page, text, NAMES.length, []);
      await checkScreen(page, shot('class-waiting'));

      // The class's cards carry each pupil's guardian code home.
      await page.getByRole('button', { name: text['teach.printAll'] }).click();
      const [sheet] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('link', { name: say(text, 'teach.openSheet', { count: NAMES.length }) }).click(),
      ]);
      await sheet
        .locator('.card')
        .nth(NAMES.length - 1)
        .waitFor(WAIT);
      guardianCodes = await sheet.locator('.card .guardian-code').allTextContents();
      expect(guardianCodes).toHaveLength(NAMES.length);
      await sheet.close();
      expect(tab.errors).toEqual([]);
    });

    // The first pupil types the card's username and password: what waits and why comes first.
    const [[pupilName, username, password] = ['', '', ''], ...others] = details;
    await inPage(rig.browser, tablet, async (tab) => {
      const { page } = tab;
      await page.goto(server.url);
      await expectScreen(page, text['signIn.title']);
      await page.getByRole('link', { name: text['signIn.card'] }).click();
      await inputLabelled(tab, text['form.cardUsername']).fill(username);
      await inputLabelled(tab, text['form.password']).fill(password);
      await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
      // Not covered by a school's agreement, and still no legal text meant for adults: the guardian decides.
      await expectScreen(page, text['account.security']);
      expect(await page.getByRole('heading', { name: text['gate.title'] }).count()).toBe(0);
      // Then what waits and why, at the top, above the form for a password of their own.
      const panel = page.getByTestId('consent-waiting');
      await panel.getByRole('heading', { name: text['family.childTitle'] }).waitFor(WAIT);
      await panel.getByText(text['family.childBody']).waitFor(WAIT);
      await panel.getByText(text['family.childIfNot'].split('{date}')[0] ?? '').waitFor(WAIT);
      await page.getByText(say(text, 'account.hello', { name: pupilName })).waitFor(WAIT);
      const form = page.getByRole('region', { name: text['password.title'], exact: true });
      const [waits, asks] = [await panel.boundingBox(), await form.boundingBox()];
      expect(waits?.y ?? Number.POSITIVE_INFINITY, 'what waits is at the top').toBeLessThan(TABLET.height / 3);
      expect(waits?.y ?? 0, 'what waits comes before the password form').toBeLessThan(asks?.y ?? 0);
      await checkScreen(page, shot('pupil-waits'));
      // With a password of their own, the child makes the link for a parent (it goes to the mother's phone).
      await chooseOwnPassword(tab, text, password, 'Kite2026own');
      await panel.getByText(text['family.childHow']).waitFor(WAIT);
      await panel.getByRole('button', { name: text['family.makeLink'] }).click();
      expect(await panel.getByTestId('consent-link').inputValue()).toContain('/consent#');
      await checkScreen(page, shot('pupil-link'));
      expect(tab.errors).toEqual([]);
    });

    // The pupil's mother, on her phone: signs up, links with the card's guardian code, agrees; counted.
    const mother = hands();
    await inPage(rig.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      const born = { year: '1984', month: '03' };
      await signUpInPage(rig, tab, text, nextPhone(), 'Magnolia1984', { born, hand: mother });
      await mother.tap(page.getByRole('link', { name: text['family.toGuardianArea'] }));
      await expectScreen(page, text['guardian.title']);
      await mother.type(page.getByTestId('guardian-code'), guardianCodes[0] ?? '');
      await mother.choose(page.getByLabel(text['guardianConsent.relation']), 'mother');
      await mother.tap(page.getByRole('button', { name: text['guardian.link'], exact: true }));
      await page.getByText(text['guardian.linked']).waitFor(WAIT);
      const panel = page.getByTestId('child-panel');
      await panel.getByRole('heading', { name: pupilName, exact: true }).waitFor(WAIT);
      await panel.getByText(text['family.state.pending']).waitFor(WAIT);
      await checkScreen(page, shot('mother-linked', 'phone'));
      // Linked by the card's code, she agrees from there: the consent page knows who she is to the child.
      await mother.tap(panel.getByRole('button', { name: text['guardian.agreeNow'] }));
      await expectScreen(page, text['guardianConsent.title']);
      await page.getByText(pupilName).first().waitFor(WAIT);
      expect(await page.getByLabel(text['guardianConsent.relation']).inputValue()).toBe('mother');
      await checkScreen(page, shot('mother-agrees', 'phone'));
      await mother.tap(page.getByRole('button', { name: text['guardianConsent.agree'] }));
      await expectScreen(page, text['guardianConsent.doneTitle']);
      await checkScreen(page, shot('mother-agreed', 'phone'));
      expect(tab.errors).toEqual([]);
    });
    console.log(
      `no-agreement story (${locale}, phone 390×844): the mother, from the first screen to "agreed", ${mother.count.taps} taps, ${mother.count.keys} keystrokes`,
    );
    expect(mother.count.taps).toBeLessThanOrEqual(MOTHER_AT_MOST.taps);
    expect(mother.count.keys).toBeLessThanOrEqual(MOTHER_AT_MOST.keys);

    // The teacher's class page: the first pupil agreed to, the others still waiting.
    await inPage(rig.browser, tablet, async (tab) => {
      const { page } = tab;
      await teacherOpensTeaching(rig, tab, text, teacher);
      await page.getByRole('link', { name: className, exact: true }).click();
      await expectScreen(page, className);
      await expectConsent(page, text, others.length, [pupilName]);
      await checkScreen(page, shot('class-agreed'));
      expect(tab.errors).toEqual([]);
    });
  }, 300_000);
});
