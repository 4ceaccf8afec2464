/**
 * What a school's first week in Chromium goes by (first-week.test.ts, teacher-way-in.test.ts and the
 * stories after them): the console's words the operator reads, the operator adding a school, recording
 * its agreement and approving a teacher, the teacher's way in (sign-up, the school found, asked) and
 * first class, the counting hands, and the sign-in details a creation shows.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type ConsoleRig, openConsoleAsOperator } from '../../../console/e2e/console-harness.ts';
import { cardTexts } from '../../../server/src/services/edu/school/card-texts.ts';
import { inputLabelled } from './account-steps.ts';
import type { AppUnderTest } from './app-server.ts';
import { expectScreen, shown, type TestPage } from './pages.ts';
import {
  checkScreen,
  expectTappable,
  type Hands,
  plainHands,
  say,
  signInWithPassword,
  signUpInPage,
  type Text,
} from './story-steps.ts';

export const TABLET = { width: 768, height: 1024 };
export const PHONE = { width: 390, height: 844 };
export const WAIT = { timeout: 60_000 };

/** The console's words the operator goes by (packages/console/src/screens/schools.tsx, consent-settings.tsx, teachers.tsx). */
export const CONSOLE = {
  'zh-CN': {
    schools: '学校',
    newName: '学校名称',
    addSchool: '添加学校',
    agreementSchool: '学校',
    signatory: '代表学校签署的人（姓名和职务）',
    signedOn: '签署日期',
    record: '登记协议',
    recorded: (name: string) => `已登记 ${name} 的协议。`,
    teachers: '教师审核',
    approve: '通过',
    confirm: '确定',
    approved: (school: string) => new RegExp(`已成为 ${school} 的教师。`),
    withoutAgreement:
      '登记学校协议（见下方“学校协议”）之前，这所学校的教师创建的不满 14 岁学生账号都要等家长同意；在 EDU_CONSENT_PENDING_DAYS（默认 30 天）内没有家长同意的账号会被删除。',
    addedWithoutAgreement: (name: string) =>
      `已添加 ${name}。请在下方登记它的学校协议，否则教师创建的不满 14 岁学生账号要等家长同意。`,
    noAgreement: '没有协议：新学生需等待监护人同意。',
  },
  en: {
    schools: 'Schools',
    newName: 'Name of the school',
    addSchool: 'Add the school',
    agreementSchool: 'School',
    signatory: 'Who signed for the school (name and role)',
    signedOn: 'Day signed',
    record: 'Record the agreement',
    recorded: (name: string) => `Recorded the agreement of ${name}.`,
    teachers: 'Teacher approvals',
    approve: 'Approve',
    confirm: 'Yes, decide',
    approved: (school: string) => new RegExp(`now teaches at ${school}\\.`),
    withoutAgreement:
      "Until the school's agreement is recorded (School agreement, below), every pupil under 14 its teachers create waits for a parent's consent, and an account no parent agrees to within EDU_CONSENT_PENDING_DAYS (30 days unless configured) is deleted.",
    addedWithoutAgreement: (name: string) =>
      `Added ${name}. Record its school agreement below, or its teachers' pupils under 14 will wait for their parents' consent.`,
    noAgreement: 'No agreement: new pupils wait for a guardian.',
  },
} as const;

type Locale = keyof typeof CONSOLE;

/**
 * The operator, at a desk, opens the console's schools (switched to English for `en`) and adds
 * `school`; answers the console's page, left open for what the operator does next.
 */
export const operatorAddsSchool = async (rig: ConsoleRig, locale: Locale, school: string): Promise<Page> => {
  const words = CONSOLE[locale];
  const desk = await openConsoleAsOperator(rig, { hash: '#/schools', heading: CONSOLE['zh-CN'].schools });
  if (locale === 'en') {
    await desk.getByLabel('语言').selectOption('en');
    await shown(desk, desk.getByRole('heading', { name: words.schools, level: 1 }));
  }
  await desk.getByLabel(words.newName, { exact: true }).fill(school);
  await desk.getByRole('button', { name: words.addSchool }).click();
  await desk.getByRole('table').getByRole('rowheader', { name: school }).waitFor(WAIT);
  return desk;
};

/** The operator records the agreement `school` signed, on the console's schools. */
export const operatorRecordsAgreement = async (desk: Page, locale: Locale, school: string) => {
  const words = CONSOLE[locale];
  await desk.getByLabel(words.agreementSchool, { exact: true }).selectOption({ label: school });
  await desk.getByLabel(words.signatory).fill(locale === 'en' ? 'Wang Li, head teacher' : '王丽 校长');
  await desk.getByLabel(words.signedOn).fill('2026-09-01');
  await desk.getByRole('button', { name: words.record }).click();
  await desk.getByText(words.recorded(school)).waitFor(WAIT);
};

/** The operator approves the teacher of `phone` at `school`, after the question naming them both. */
export const operatorApproves = async (desk: Page, locale: Locale, phone: string, school: string) => {
  const words = CONSOLE[locale];
  await desk.getByRole('link', { name: words.teachers }).click();
  await shown(desk, desk.getByRole('heading', { name: words.teachers, level: 1 }));
  await desk.getByRole('button', { name: new RegExp(`^${words.approve} .*\\(${phone}\\)$`) }).click();
  await desk.getByRole('group').getByRole('button', { name: words.confirm }).click();
  await desk.getByText(words.approved(school)).waitFor(WAIT);
};

/**
 * A new teacher's way in: signs up, opens "Teaching" from the account centre (teaching nowhere yet),
 * finds the school by `search` (a part of its name), gives their `name` when told, and asks to teach
 * there; the school shows as waiting for approval, no class to open yet. Screens `shot('found')`,
 * `shot('asked')`.
 */
export const askToTeach = async (
  app: AppUnderTest,
  tab: TestPage,
  text: Text,
  teacher: { phone: string; password: string; name?: string },
  school: { name: string; search: string },
  shot: (screen: string) => string,
) => {
  const { page } = tab;
  await signUpInPage(app, tab, text, teacher.phone, teacher.password);
  await page.getByRole('link', { name: text['account.teaching'] }).click();
  await expectScreen(page, text['teach.title']);
  await page.getByText(text['teach.noSchools']).waitFor(WAIT);
  const box = inputLabelled(tab, text['teach.schoolName']);
  await box.fill(school.search);
  await expectTappable(box, 'the school name box');
  const search = page.getByRole('button', { name: text['teach.search'] });
  await expectTappable(search, 'search');
  await search.click();
  const results = page.getByRole('list', { name: text['teach.searchResults'] });
  await results.getByRole('strong').getByText(school.name, { exact: true }).waitFor(WAIT);
  if (teacher.name) await inputLabelled(tab, text['teach.yourName']).fill(teacher.name);
  const ask = results.getByRole('button', { name: `${text['teach.askToTeach']} ${school.name}` });
  await expectTappable(ask, 'ask to teach');
  await checkScreen(page, shot('found'));
  await ask.click();
  await page.getByText(say(text, 'teach.asked', { school: school.name })).waitFor(WAIT);
  await page.locator('.teach-row', { hasText: school.name }).first().getByText(text['teach.pending']).waitFor(WAIT);
  expect(await page.getByRole('heading', { name: text['teach.openClass'] }).count()).toBe(0);
  await checkScreen(page, shot('asked'));
};

/** The teacher signs in with their password from the first screen and opens "Teaching". */
export const teacherOpensTeaching = async (
  app: AppUnderTest,
  tab: TestPage,
  text: Text,
  teacher: { phone: string; password: string },
) => {
  const { page } = tab;
  await page.goto(app.server.url);
  await signInWithPassword(tab, text, teacher.phone, teacher.password);
  await expectScreen(page, text['account.profile']);
  await page.getByRole('link', { name: text['account.teaching'] }).click();
  await expectScreen(page, text['teach.title']);
};

/**
 * On "Teaching", once approved: the teacher names a class, chooses 三年级 (Grade 3) from the grade list
 * (`filled` runs then, before "Create") and opens it; answers on the class's page.
 */
export const openClass = async (
  tab: TestPage,
  text: Text,
  className: string,
  { hand = plainHands, filled }: { hand?: Hands; filled?: () => Promise<void> } = {},
) => {
  const { page } = tab;
  await page.getByRole('heading', { name: text['teach.openClass'] }).waitFor(WAIT);
  await hand.type(inputLabelled(tab, text['teach.className']), className);
  await hand.choose(page.getByLabel(text['teach.grade'], { exact: true }), { label: text['grade.3'] });
  await filled?.();
  await hand.tap(page.getByRole('button', { name: text['teach.create'] }));
  await expectScreen(page, className);
};

/** A pupil on the card's password, at the form for one of their own: the card's, then `own` twice. */
export const chooseOwnPassword = async (tab: TestPage, text: Text, old: string, own: string) => {
  const { page } = tab;
  const form = page.getByRole('region', { name: text['password.title'], exact: true });
  await form.waitFor(WAIT);
  await inputLabelled(tab, text['password.old']).fill(old);
  await inputLabelled(tab, text['form.newPassword']).fill(own);
  await inputLabelled(tab, text['form.confirmPassword']).fill(own);
  await form.getByRole('button', { name: text['password.submit'] }).click();
  await form.getByText(text['password.changedOthersOut']).waitFor(WAIT);
};

/** The card's labels in the sheet's language (services/edu/school/card-texts.ts). */
export const labelsOf = (locale: 'zh-CN' | 'en') => {
  const t = cardTexts[locale];
  return { name: t.name, username: t.username, password: t.password };
};

/**
 * What the people's hands do, counted: a tap; a character typed; a choice from a list (two taps: open
 * it, choose); a file chosen (two taps: the picker, the file); printing (two taps: the browser's Print,
 * the dialog's Print); a link opened from a message (a tap).
 */
export const hands = () => {
  const count = { taps: 0, keys: 0 };
  return {
    count,
    tap: async (target: Locator) => {
      await target.click();
      count.taps += 1;
    },
    type: async (target: Locator, value: string) => {
      await target.fill(value);
      count.keys += [...value].length;
    },
    choose: async (target: Locator, option: { label: string } | string) => {
      await target.selectOption(option);
      count.taps += 2;
    },
    pick: async (target: Locator, file: string) => {
      await target.setInputFiles(file);
      count.taps += 2;
    },
    print: async (sheet: Page) => {
      const pdf = await sheet.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
      count.taps += 2;
      return pdf;
    },
    /** A pull to refresh the page. */
    refresh: async (page: Page) => {
      await page.reload();
      count.taps += 1;
    },
  };
};

/** The rows of the sign-in details table shown after a creation: name, username, password. */
export const shownDetails = async (page: Page, caption: string) => {
  const table = page.getByRole('table', { name: caption });
  await table.waitFor(WAIT);
  return (await table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
    )) as [string, string, string][];
};
