/**
 * Roster files in the shapes real exports take, over HTTP as the console sends them: the template as
 * an .xlsx workbook (openpyxl's, with docProps/ and inline strings, a title row and 学号 in E notation:
 * fixtures/make-fixtures.py; and write-excel-file's, with shared strings), the template as a GBK CSV
 * with a blank line and a repeated row, OneRoster 1.2 classes without a grade, the 1.1 `grade`
 * column, a manifest with empty optional entries, and rows refused because a row they name was.
 */
import { readFileSync } from 'node:fs';
import { routes } from '@edupass/protocol';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { csvText, HEADERS, rosterSet, rosterZip } from '@edupass/test-kit/oneroster';
import { describe, expect, test } from 'vitest';
import writeExcelFile from 'write-excel-file/node';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

interface Job {
  id: number;
  format: string;
  encoding: string;
  rows: number;
  counts: Record<string, number>;
  items: { kind: string; action: string; name: string; detail: string }[];
  refused: { file: string; line: number; column: string; reason: string; cause?: Record<string, unknown> }[];
  blank_lines: { file: string; line: number }[];
}

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

const preview = async (bytes: Uint8Array) =>
  edu.ok<Job>(
    await call(
      'POST',
      routes.previewRosterImport.path,
      { file_base64: Buffer.from(bytes).toString('base64') },
      { token: await edu.operatorToken() },
    ),
  );

const confirm = async (id: number) =>
  edu.ok<Job>(
    await call('POST', pathOf(routes.confirmRosterImport.path, { id }), {}, { token: await edu.operatorToken() }),
  );

const classesOf = async (schoolName: string) =>
  (
    await server.app.ctx.db
      .selectFrom('classes')
      .innerJoin('schools', 'schools.id', 'classes.school_id')
      .select(['classes.name', 'classes.grade'])
      .where('schools.name', '=', schoolName)
      .orderBy('classes.name')
      .execute()
  ).map((c) => ({ name: c.name, grade: Number(c.grade) }));

const changes = (counts: Record<string, number>) => Object.entries(counts).filter(([, n]) => n !== 0);

describe('the template as a workbook and as a GBK CSV', () => {
  test("openpyxl's .xlsx is read through the same preview: numbers as text, blank and refused rows by line", async () => {
    const job = await preview(fixture('template.xlsx'));
    expect(job).toMatchObject({ format: 'template', encoding: 'utf-8', rows: 4 });
    expect(job.counts).toMatchObject({ schools_created: 1, classes_created: 1, pupils_created: 3, refused: 1 });
    expect(job.counts.blank_lines).toBe(1);
    expect(job.blank_lines).toEqual([{ file: 'template.xlsx', line: 5 }]);
    expect(job.refused).toEqual([{ file: 'template.xlsx', line: 7, column: '角色', reason: 'role_not_imported' }]);
    expect(job.items.filter((i) => i.kind === 'pupil').map((i) => i.name)).toEqual(['王小明', '李子涵', '张一诺']);
    await confirm(job.id);
    expect(await classesOf('春晖小学')).toEqual([{ name: '一年级一班', grade: 1 }]);

    // The same pupils typed as text in a CSV are the same people: 20260302, never 2.0260302E7.
    const csv = [
      '学校,班级,年级,学年,姓名,角色,学号/编号',
      '春晖小学,一年级一班,1,2026-2027,王小明,学生,20260301',
      '春晖小学,一年级一班,1,2026-2027,李子涵,学生,20260302',
      '春晖小学,一年级一班,1,2026-2027,张一诺,学生,0012',
    ].join('\n');
    expect(changes((await preview(new TextEncoder().encode(csv))).counts)).toEqual([]);
  });

  test('a GBK CSV from Chinese Excel: its blank line and repeated row are reported by line', async () => {
    const job = await preview(fixture('template-gbk.csv'));
    expect(job).toMatchObject({ format: 'template', encoding: 'gb18030', rows: 3 });
    expect(job.counts).toMatchObject({ pupils_created: 2, refused: 1, blank_lines: 1 });
    expect(job.blank_lines).toEqual([{ file: 'template.csv', line: 3 }]);
    expect(job.refused).toEqual([{ file: 'template.csv', line: 5, column: '班级', reason: 'duplicate_id' }]);
    await confirm(job.id);
    expect(await classesOf('启明小学')).toEqual([{ name: '二年级一班', grade: 2 }]);
  });

  test("write-excel-file's .xlsx (shared strings, numbers as numbers) is read as the template", async () => {
    const workbook = await writeExcelFile([
      ['学校', '班级', '年级', '学年', '姓名', '角色', '学号'],
      ['秋实小学', '三年级二班', 3, '2026-2027', '赵雨桐', '学生', 2026030101],
      [null, null, null, null, null, null, null],
      ['秋实小学', '三年级二班', 3, '2026-2027', '黄宇轩', '学生', 2026030102],
    ]).toBuffer();
    const job = await preview(workbook);
    expect(job.counts).toMatchObject({ classes_created: 1, pupils_created: 2, refused: 0, blank_lines: 1 });
    expect(job.blank_lines).toEqual([{ file: 'template.xlsx', line: 3 }]);
  });

  test('a workbook that is not the template is E_1 naming both formats', async () => {
    const other = await writeExcelFile([['名称'], ['x']]).toBuffer();
    const answer = await call(
      'POST',
      routes.previewRosterImport.path,
      { file_base64: other.toString('base64') },
      { token: await edu.operatorToken() },
    );
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(/\.xlsx workbook/);
  });
});

describe('OneRoster 1.2 as exporters write it', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  test('a class without grades takes its pupils’ grade, or grade 1 said so in the preview', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 2, pupilsPerClass: 2, prefix: 'ng-' });
    for (const row of set.classes) row[4] = '';
    // The first class's pupils are in grade 3; the second's give no grade either.
    for (const row of set.users) if (String(row[0]).startsWith('ng-p-0-0-')) row[16] = '03';
    for (const row of set.users) if (String(row[0]).startsWith('ng-p-0-1-')) row[16] = '';
    const job = await preview(rosterZip(set));
    expect(job.refused).toEqual([]);
    expect(job.counts).toMatchObject({ classes_created: 2, pupils_created: 4 });
    expect(job.items.filter((i) => i.kind === 'class').map((i) => i.detail)).toEqual([
      '3 2027',
      '1 2027 (no grade in the file)',
    ]);
    await confirm(job.id);
    expect((await classesOf('第1实验学校ng-')).map((c) => c.grade)).toEqual([3, 1]);
  });

  test('the 1.1 `grade` column is read, and a manifest leaving optional entries empty is accepted', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 2, pupilsPerClass: 1, prefix: 'g11-' });
    const header = HEADERS.classes.map((h) => (h === 'grades' ? 'grade' : h));
    for (const row of set.classes) row[4] = '04';
    const manifest = csvText(
      ['propertyName', 'value'],
      [
        ['manifest.version', '1.0'],
        ['oneroster.version', '1.2'],
        ['file.academicSessions', 'bulk'],
        ['file.categories', ''],
        ['file.classes', 'bulk'],
        ['file.classResources', ''],
        ['file.courses', ''],
        ['file.demographics', ''],
        ['file.enrollments', 'bulk'],
        ['file.orgs', 'bulk'],
        ['file.roles', ''],
        ['file.users', 'bulk'],
        ['source.systemName', ''],
        ['source.systemCode', ''],
      ],
    );
    const zip = rosterZip(
      set,
      {},
      { 'manifest.csv': encode(manifest), 'classes.csv': encode(csvText(header, set.classes)) },
    );
    const job = await preview(zip);
    expect(job.refused).toEqual([]);
    expect(job.counts).toMatchObject({ classes_created: 2, pupils_created: 2 });
    await confirm(job.id);
    expect((await classesOf('第1实验学校g11-')).map((c) => c.grade)).toEqual([4, 4]);
  });

  test('rows naming a refused class or person say which row was refused and why, not "not in the file"', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 1, pupilsPerClass: 2, prefix: 'rc-' });
    (set.classes[0] as string[])[4] = '五年级半';
    (set.users[1] as string[])[8] = '';
    (set.users[1] as string[])[9] = '';
    const job = await preview(rosterZip(set));
    const classCause = {
      kind: 'class',
      name: '1年级1班',
      file: 'classes.csv',
      line: 2,
      column: 'grades',
      reason: 'grade',
    };
    expect(job.refused).toEqual([
      { file: 'classes.csv', line: 2, column: 'grades', reason: 'grade' },
      { file: 'users.csv', line: 3, column: 'givenName', reason: 'name' },
      { file: 'users.csv', line: 2, column: 'enrollments.csv', reason: 'class_refused', cause: classCause },
      { file: 'enrollments.csv', line: 2, column: 'classSourcedId', reason: 'class_refused', cause: classCause },
      { file: 'enrollments.csv', line: 3, column: 'classSourcedId', reason: 'class_refused', cause: classCause },
    ]);
  });
});
