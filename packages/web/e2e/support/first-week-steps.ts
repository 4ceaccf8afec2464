/**
 * What a school's first week in Chromium goes by (first-week.test.ts and the stories after it): the
 * console's words the operator reads, the counting hands, and the sign-in details a creation shows.
 */
import type { Locator, Page } from 'playwright-core';
import { cardTexts } from '../../../server/src/services/edu/school/card-texts.ts';

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
  },
} as const;

/** The card's labels in the sheet's language (services/edu/school/card-texts.ts). */
export const labelsOf = (locale: 'zh-CN' | 'en') => {
  const t = cardTexts[locale];
  return { name: t.name, username: t.username, password: t.password };
};

/**
 * What the people's hands do, counted: a tap; a character typed; a choice from a list (two taps: open
 * it, choose); a file chosen (two taps: the picker, the file); printing (two taps: the browser's Print,
 * the dialog's Print).
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
