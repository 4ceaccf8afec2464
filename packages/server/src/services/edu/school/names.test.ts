import { constants, crc32, deflateRawSync } from 'node:zlib';
import { routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { CHINESE_NAMES, eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { unzipSync } from 'fflate';
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

/** A zip entry as written: its name, deflated data, CRC-32 and both sizes. */
interface Packed {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
}

const packed = (name: string, content: Uint8Array): Packed => ({
  name,
  data: deflateRawSync(content),
  crc: crc32(content),
  size: content.length,
});

/**
 * `mib` MiB of spaces deflated without ever holding them whole: one MiB deflated from a fresh stream
 * and flushed (non-final blocks that refer to nothing before them) repeated, then an empty final block.
 */
const packedSpaces = (name: string, mib: number): Packed => {
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  const piece = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(chunk, crc);
  const data = Buffer.concat([...Array.from({ length: mib }, () => piece), Buffer.from([0x03, 0x00])]);
  return { name, data, crc, size: mib * 1024 * 1024 };
};

/** A zip of the entries (local headers, central directory and its end record, as a zip tool writes them). */
const zipOf = (entries: Packed[]): Buffer => {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflated
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
};

/** A real workbook's entries with its first sheet swapped for `sheet`. */
const workbookWith = async (sheet: Packed) => {
  const entries = unzipSync(await writeExcelFile([['姓名'], ['王小明']]).toBuffer());
  return zipOf(
    Object.entries(entries).map(([name, content]) =>
      name === 'xl/worksheets/sheet1.xml' ? { ...sheet, name } : packed(name, content),
    ),
  );
};

describe('a zip bomb sent as a workbook', () => {
  const refusedWith = async (file: Buffer, message: RegExp) => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const answer = await preview(teacher.token, classId, file);
    expectError(answer, 'E_1');
    expect((answer.body as unknown as { error_message: string }).error_message).toMatch(message);
  };

  test('400 MiB of spaces packed into 400 KiB is refused from the zip directory, nothing unpacked', async () => {
    const bomb = await workbookWith(packedSpaces('xl/worksheets/sheet1.xml', 400));
    expect(bomb.length).toBeLessThan(512 * 1024);
    const before = process.memoryUsage().rss;
    await refusedWith(bomb, /xl\/worksheets\/sheet1\.xml unpacks to more than \d+ bytes/);
    // Unpacked, the sheet alone would have been 400 MiB (the server grew by about 740 MB).
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  test('a sheet packed more than the roster import allows (8 MiB of spaces) is refused', async () => {
    await refusedWith(await workbookWith(packedSpaces('xl/worksheets/sheet1.xml', 8)), /packed more than 200 to 1/);
  });

  test('a sheet holding more than its directory entry declares is refused once it passes the declared size', async () => {
    const lying = { ...packedSpaces('xl/worksheets/sheet1.xml', 8), size: 1000 };
    await refusedWith(await workbookWith(lying), /holds more than the 1000 bytes it declares/);
  });

  test('a workbook of many sheets (more entries than a roster zip may have) is still read', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const names = CHINESE_NAMES.slice(0, 3);
    const workbook = await writeExcelFile(
      Array.from({ length: 20 }, (_, i) => ({
        sheet: `${i + 1}班`,
        data: [['姓名'], ...names.map((n) => [`${n}${i || ''}`])],
      })),
    ).toBuffer();
    expect(Object.keys(unzipSync(workbook)).length).toBeGreaterThan(16);
    const read = edu.ok<{ names: string[] }>(await preview(teacher.token, classId, workbook));
    expect(read.names).toEqual(names);
  });
});
