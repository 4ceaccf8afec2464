/**
 * The roster import on the console's Schools screen in Chromium against the real server: an operator
 * chooses the Chinese-header template with a chooser in the console's words, uploads it, reads the preview in Chinese words (three pupils, the class with
 * its grade and year, one refused row pointed at by line and column), confirms, and the server holds the school with its pupils.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, type ConsoleRig, openConsoleAsOperator, startConsoleRig } from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;

beforeAll(async () => {
  rig = await startConsoleRig();
  page = await openConsoleAsOperator(rig, { hash: '#/schools', heading: '导入名册', level: 2 });
  // The build and the first sign-in take minutes on a loaded machine.
}, 300_000);
afterAll(() => rig?.close());

describe('the roster import', () => {
  it('uploads the template, shows the preview and refused rows, and imports on confirmation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-roster-'));
    const file = join(dir, '名册.csv');
    writeFileSync(
      file,
      '学校,班级,年级,学年,姓名,角色,学号/编号\n晨光小学,二年级一班,2,2026-2027,周小雨,学生,1\n晨光小学,二年级一班,2,2026-2027,吴思远,学生,2\n晨光小学,二年级一班,2,2026-2027,郑可可,学生,3\n晨光小学,二年级一班,2,2026-2027,郑妈妈,家长,4\n',
    );
    // The chooser in the console's words (the browser's own says "Choose File"), a 44 px target.
    const chooser = page.locator('.file-chooser', { has: page.locator('#roster-file') });
    await chooser.getByText('还没有选择文件').waitFor();
    expect(await chooser.getByText('选择文件', { exact: true }).isVisible()).toBe(true);
    expect((await chooser.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await page.getByLabel('名册文件（.zip、.csv 或 .xlsx）').setInputFiles(file);
    await chooser.getByText('名册.csv').waitFor();
    await page.getByRole('button', { name: '上传并预览' }).click();
    const counts = page.getByRole('table', { name: /导入 \d+：待确认/ });
    await expect.poll(() => counts.getByRole('row', { name: /新建学生账号 3/ }).count(), { timeout: 30_000 }).toBe(1);
    // The class as a chooser names it, in Chinese words: its title, grade and school year.
    await page
      .getByRole('table', { name: '具体变更' })
      .getByRole('row', { name: '班级 新建 二年级一班 · 二年级 · 2026-2027' })
      .waitFor();
    await page
      .getByRole('table', { name: '未导入的行' })
      .getByRole('row', { name: /template\.csv 5 角色 只导入学生和教师，这个角色不导入。/ })
      .waitFor();
    // Every change named in Chinese: no English code (preview, school, class, pupil, create) on the card.
    const items = page.getByRole('table', { name: '具体变更' });
    await items.getByRole('row', { name: '学生 新建 周小雨' }).waitFor();
    await items.getByRole('row', { name: '班级 新建 二年级一班' }).waitFor();
    const card = await page.locator('#roster-import').innerText();
    expect(card.match(/\b(preview|held|school|class|pupil|person|create|match|change|remove)\b/g)).toBeNull();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: '确认导入' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /导入 \d+ 已完成。/ })
      .waitFor();
    const pupils = await rig.server.app.ctx.db
      .selectFrom('pupil_accounts')
      .innerJoin('schools', 'schools.id', 'pupil_accounts.school_id')
      .select('pupil_accounts.display_name')
      .where('schools.name', '=', '晨光小学')
      .orderBy('pupil_accounts.display_name')
      .execute();
    expect(pupils.map((p) => p.display_name).sort()).toEqual(['吴思远', '周小雨', '郑可可'].sort());
  });
});
