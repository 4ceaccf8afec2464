/**
 * Grades in words, in Chromium, in zh-CN and en at phone (390×844) and classroom tablet (768×1024)
 * widths: a teacher opens a class by choosing 三年级 (Grade 3) from the grade list — no number box,
 * no 大学/成人 on a server that does not allow it — and later corrects it to 四年级 from the class
 * page, the class and its pupils following on the server; a co-teacher has no such control. A
 * guardian's daily minutes are a choice: typing "30" on the box that shows 60 gives 30, not 6030.
 * Screenshots under e2e/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ClassDetail, routes } from '@edupass/protocol';
import { client, PASSWORD, signAgreementsInEffect, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { bornYearsAgo, eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { beforeAll, expect, test } from 'vitest';
import { inputLabelled, openSignedIn } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { checkScreen, say } from './support/story-steps.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
const app = withApp();
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});
const WAIT = { timeout: 60_000 };

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
];
const CASES = LOCALES.flatMap(({ locale, text }) => VIEWPORTS.map((viewport) => ({ locale, text, viewport })));
type Text = (typeof LOCALES)[number]['text'];
/** The id of the one class the teacher teaches. */
const classOf = async (teacher: { token: string }) => {
  const me = await client(app.server.url)<{ classes: { id: number }[] }>('GET', routes.eduMemberships.path, undefined, {
    token: teacher.token,
  });
  const [only] = me.body.classes;
  if (!only) throw new Error('the teacher has no class');
  return only.id;
};

test.each(CASES)(
  'a teacher opens a class by choosing 三年级 and later changes it to 四年级 ($locale, $viewport.name)',
  async ({ locale, text, viewport }) => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const schoolId = await steps.addSchool(`Grades ${locale} ${viewport.name}`);
    const teacher = await steps.approvedTeacher(schoolId);
    await signAgreementsInEffect(server, teacher.token);
    const shot = (screen: string) => `class-grades-${screen}.${locale}.${viewport.name}`;
    const className = `${viewport.name}${locale}班`;

    await inPage(app.browser, { locale, width: viewport.width, height: viewport.height }, async (tab) => {
      const { page } = tab;
      await openSignedIn(app, tab, teacher, '/teach');
      await expectScreen(page, text['teach.title']);
      await page.getByRole('heading', { name: text['teach.openClass'] }).waitFor(WAIT);
      // No number box anywhere: the grade is a list of names.
      expect(await page.locator('input[type="number"]').count()).toBe(0);
      const grade = page.getByLabel(text['teach.grade'], { exact: true });
      const offered = await grade.locator('option:not([disabled])').allTextContents();
      expect(offered).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((g) => text[`grade.${g}` as keyof Text]));
      expect(offered).not.toContain(text['classGrade.13']);
      await inputLabelled(tab, text['teach.className']).fill(className);
      // Not chosen yet: the form asks for it rather than guessing 一年级.
      await page.getByRole('button', { name: text['teach.create'] }).click();
      await page.getByText(text['form.required']).first().waitFor(WAIT);
      await grade.selectOption({ label: text['grade.3'] });
      expect((await grade.boundingBox())?.height ?? 0, 'the grade list is a 44 px target').toBeGreaterThanOrEqual(44);
      await checkScreen(page, shot('open'));
      await page.getByRole('button', { name: text['teach.create'] }).click();
      await expectScreen(page, className);
      const classId = Number(/\/teach\/classes\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
      const facts = say(text, 'teach.classFacts', { grade: text['grade.3'], year: '' });
      await page.getByText(facts.trim(), { exact: false }).first().waitFor(WAIT);
      const detail = async () => (await steps.classDetail(teacher.token, classId)).body as ClassDetail;
      expect((await detail()).class.grade).toBe(3);
      await steps.createPupils(teacher, classId, ['王子涵']);

      // Later: the head teacher corrects it to 四年级 from the class page, after a plain warning.
      await page.reload();
      await expectScreen(page, className);
      const change = page.getByRole('button', { name: text['teach.gradeChange'], exact: true });
      await change.scrollIntoViewIfNeeded();
      const settingsGrade = page.getByRole('region', { name: text['teach.settings'] }).getByLabel(text['teach.grade']);
      expect(await settingsGrade.inputValue()).toBe('3');
      await settingsGrade.selectOption({ label: text['grade.4'] });
      for (const target of [settingsGrade, change]) {
        expect((await target.boundingBox())?.height ?? 0, 'a 44 px target').toBeGreaterThanOrEqual(44);
      }
      await change.click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText(text['teach.gradeChangeBody']).waitFor(WAIT);
      await checkScreen(page, shot('change-confirm'));
      await dialog.getByRole('button', { name: text['teach.gradeChange'], exact: true }).click();
      await page.getByText(say(text, 'teach.gradeChanged', { grade: text['grade.4'] })).waitFor(WAIT);
      await page
        .getByText(say(text, 'teach.classFacts', { grade: text['grade.4'], year: '' }).trim())
        .first()
        .waitFor(WAIT);
      await checkScreen(page, shot('changed'));
      expect((await detail()).class.grade).toBe(4);
      expect(tab.errors).toEqual([]);
    });

    // A co-teacher sees the grade but has no control to change it (the server refuses them too).
    const coTeacher = await steps.approvedTeacher(schoolId);
    await signAgreementsInEffect(server, coTeacher.token);
    const classId = await classOf(teacher);
    steps.ok(
      await call(
        'POST',
        pathOf(routes.addClassTeacher.path, { id: classId }),
        { user_id: coTeacher.userId },
        {
          token: teacher.token,
        },
      ),
      204,
    );
    await inPage(app.browser, { locale, width: viewport.width, height: viewport.height }, async (tab) => {
      const { page } = tab;
      await openSignedIn(app, tab, coTeacher, `/teach/classes/${classId}`);
      await expectScreen(page, className);
      await page.getByRole('button', { name: text['teach.promote'] }).waitFor(WAIT);
      expect(await page.getByRole('button', { name: text['teach.gradeChange'], exact: true }).count()).toBe(0);
      expect(tab.errors).toEqual([]);
    });
  },
  240_000,
);

test.each(LOCALES)(
  "the guardian's minutes box takes 30 as 30, not 6030 ($locale, phone)",
  async ({ locale, text }) => {
    const { server } = app;
    const call = client(server.url);
    const child = await signUp(server, undefined, PASSWORD, [-1], { birth_year_month: bornYearsAgo(10) });
    const guardian = await signUp(server, undefined, PASSWORD, [-1], { birth_year_month: bornYearsAgo(38) });
    await signAgreementsInEffect(server, guardian.token);
    const { code } = (await call<{ code: string }>('POST', routes.openGuardianCode.path, {}, { token: child.token }))
      .body;
    expect(
      (await call('POST', routes.linkChild.path, { code, relation: 'mother' }, { token: guardian.token })).status,
    ).toBe(200);

    await inPage(app.browser, { locale, width: 390, height: 844 }, async (tab) => {
      const { page } = tab;
      await openSignedIn(app, tab, guardian, '/guardian');
      await expectScreen(page, text['guardian.title']);
      const minutes = page.getByTestId('daily-minutes');
      await minutes.waitFor(WAIT);
      // The site's 60 is shown; a phone user taps and types 30.
      expect(await minutes.inputValue()).toBe('60');
      expect((await minutes.boundingBox())?.height ?? 0, 'a 44 px target').toBeGreaterThanOrEqual(44);
      await minutes.focus();
      await page.keyboard.type('30');
      expect(await minutes.inputValue()).toBe('30');
      await keepScreenshot(page, { path: join(SHOTS, `guardian-minutes.${locale}.phone.png`), fullPage: true });
      await page.getByRole('button', { name: text['guardian.saveLimits'] }).click();
      await page.getByText(text['guardian.saved']).waitFor(WAIT);
      const record = await call<{ minor: { daily_limit_minutes: number } }>(
        'GET',
        pathOf(routes.childRecord.path, { id: child.userId }),
        undefined,
        { token: guardian.token },
      );
      expect(record.body.minor.daily_limit_minutes).toBe(30);
      expect(tab.errors).toEqual([]);
    });
  },
  120_000,
);

test.each(LOCALES)(
  "without the school's agreement the class page says who waits for a parent, until when, and what to do ($locale, tablet)",
  async ({ locale, text }) => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const schoolId = await steps.addSchool(`No agreement ${locale}`, undefined, false);
    const teacher = await steps.approvedTeacher(schoolId);
    await signAgreementsInEffect(server, teacher.token);
    const className = `三年级${locale}班`;
    const classId = await steps.createClass(teacher, schoolId, className);
    await steps.createPupils(teacher, classId, ['王子涵', '李明', '张小雨']);
    const due = server.app.ctx.now() + server.config.eduConsentPendingDays * 86_400_000;
    const dueText = new Date(due).toLocaleDateString(locale, { dateStyle: 'long' });
    const markDate = new Date(due).toLocaleDateString(locale, { month: 'short', day: 'numeric' });

    await inPage(app.browser, { locale, width: 768, height: 1024 }, async (tab) => {
      const { page } = tab;
      await openSignedIn(app, tab, teacher, `/teach/classes/${classId}`);
      await expectScreen(page, className);
      const note = page.getByRole('note');
      await note.getByText(say(text, 'teach.consentWaitingCount', { count: 3 })).waitFor(WAIT);
      await note.getByText(text['teach.consentWhatToDo']).waitFor(WAIT);
      await note.getByText(say(text, 'teach.consentDeletedOn', { date: dueText })).waitFor(WAIT);
      const marks = page.getByText(say(text, 'teach.consentWaiting', { date: markDate }));
      expect(await marks.count()).toBe(3);
      // One print button: the whole class's cards, or the chosen pupils'.
      await page.getByRole('button', { name: text['teach.printAll'] }).waitFor(WAIT);
      await page.getByLabel(say(text, 'teach.select', { name: '李明' }), { exact: true }).check();
      await page.getByRole('button', { name: say(text, 'teach.printSelected', { count: 1 }) }).waitFor(WAIT);
      expect(await page.getByRole('button', { name: text['teach.printAll'] }).count()).toBe(0);
      await checkScreen(page, `class-consent-waiting.${locale}.tablet`);
      // On the narrowest phone (320 px, WCAG's reflow width) each mark is still one line (a mark split
      // over two lines has two text boxes), on the screen.
      await page.setViewportSize({ width: 320, height: 640 });
      for (const mark of await marks.all()) {
        const boxes = await mark.evaluate((element) => {
          // The text's own boxes, one per line it takes (the mark itself is one box in the row's flex).
          const text = document.createRange();
          text.selectNodeContents(element);
          return [...text.getClientRects()].map((box) => box.right);
        });
        expect(boxes).toHaveLength(1);
        expect(boxes[0]).toBeLessThanOrEqual(320);
      }
      expect(tab.errors).toEqual([]);
    });
  },
  180_000,
);
