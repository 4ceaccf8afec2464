/**
 * A class list saved as .xlsx, uploaded from the class page in Chromium (zh-CN and en): the file picker
 * offers .xlsx beside .csv, the preview lists the names of the first column (学号 numbers beside them
 * left alone), the repeated name left out by line and the blank row reported as skipped, and the
 * pupils are created.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, signAgreementsInEffect } from '@edupass/test-kit/accounts';
import { CHINESE_NAMES, eduSteps } from '@edupass/test-kit/edu-steps';
import { expect, test } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { openSignedIn } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { say } from './support/story-steps.ts';

const app = withApp();
const WAIT = { timeout: 60_000 };

test.each(LOCALES)(
  'a teacher uploads a class list saved as .xlsx from the class page ($locale)',
  async ({ locale, text }) => {
    const { server } = app;
    const steps = eduSteps(server, client(server.url));
    const schoolId = await steps.addSchool(`Workbook ${locale}`);
    const teacher = await steps.approvedTeacher(schoolId);
    await signAgreementsInEffect(server, teacher.token);
    const classId = await steps.createClass(teacher, schoolId, `表格${locale}班`);
    const names = CHINESE_NAMES.slice(0, 4);
    const file = join(mkdtempSync(join(tmpdir(), 'class-xlsx-')), '名单.xlsx');
    writeFileSync(
      file,
      await writeExcelFile([
        ['姓名', '学号'],
        ...names.map((name, i) => [name, 20260301 + i]),
        [null, null],
        [names[1] as string, 20260399],
      ]).toBuffer(),
    );

    await inPage(app.browser, { locale, width: 1024, height: 900 }, async (tab) => {
      const { page } = tab;
      await openSignedIn(app, tab, teacher, `/teach/classes/${classId}`);
      await expectScreen(page, `表格${locale}班`);
      const picker = page.getByLabel(text['teach.file'], { exact: true });
      expect(await picker.getAttribute('accept')).toContain('.xlsx');
      await picker.setInputFiles(file);
      await page.getByRole('button', { name: text['teach.preview'] }).click();
      await page.getByText(say(text, 'teach.previewCount', { count: 4 })).waitFor(WAIT);
      await page.getByText(say(text, 'teach.blankLines', { lines: '6' })).waitFor(WAIT);
      await page
        .getByText(
          say(text, 'teach.skippedLine', { line: 7, text: names[1] as string, reason: text['teach.reason.duplicate'] }),
        )
        .waitFor(WAIT);
      await page.getByRole('button', { name: say(text, 'teach.createPupils', { count: 4 }) }).click();
      await page.getByRole('table', { name: text['teach.credentials'] }).waitFor(WAIT);
    });
    const members = await server.app.ctx.db
      .selectFrom('class_members')
      .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'class_members.user_id')
      .select('pupil_accounts.display_name')
      .where('class_members.class_id', '=', classId)
      .execute();
    expect(members.map((m) => m.display_name).sort()).toEqual([...names].sort());
  },
);
