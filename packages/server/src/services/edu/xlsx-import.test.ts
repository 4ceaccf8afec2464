import { routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { CHINESE_NAMES, eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';
import writeExcelFile from 'write-excel-file/node';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const preview = async (token: string, classId: number, file: Buffer) =>
  call<{ names: string[]; skipped: { line: number; text: string; reason: string }[] }>(
    'POST',
    pathOf(routes.previewPupils.path, { id: classId }),
    { file_base64: file.toString('base64') },
    { token },
  );

describe('an .xlsx workbook as Chinese Excel saves it', () => {
  test('the first column of the first sheet is previewed (header, blanks and duplicates as in a CSV) and created', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const names = CHINESE_NAMES.slice(0, 5);
    // A header row, a second column, an empty row and a repeated name, as a class list often has.
    const workbook = await writeExcelFile([
      ['姓名', '性别', '学号'],
      ...names.map((name, i) => [name, i % 2 === 0 ? '男' : '女', 2026001 + i]),
      [null, null, null],
      [names[0] as string, '男', 2026099],
    ]).toBuffer();
    expect(workbook.subarray(0, 2).toString('latin1')).toBe('PK');

    const read = edu.ok<{ names: string[]; skipped: { line: number; text: string; reason: string }[] }>(
      await preview(teacher.token, classId, workbook),
    );
    expect(read.names).toEqual(names);
    expect(read.skipped).toEqual([{ line: 8, text: names[0], reason: 'duplicate' }]);

    const pupils = await edu.createPupils(teacher, classId, read.names);
    expect(pupils.map((p) => p.name)).toEqual(names);
    const detail = edu.ok<{ members: { name: string; role: string }[] }>(await edu.classDetail(teacher.token, classId));
    expect(detail.members.filter((m) => m.role === 'pupil').map((m) => m.name)).toEqual(names);
  });

  test('a file that starts like a workbook but is none is E_1, not a server error', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const workbook = await writeExcelFile([['姓名'], ['王小明']]).toBuffer();
    for (const broken of [
      Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('not a zip at all')]),
      workbook.subarray(0, Math.floor(workbook.length / 2)),
    ]) {
      expectError(await preview(teacher.token, classId, broken), 'E_1');
    }
  });
});
