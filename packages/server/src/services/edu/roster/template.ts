/**
 * The Chinese-header template: a row per person and class, as a school office keeps it in Excel or
 * WPS, sent as a CSV (UTF-8, or GBK/GB18030 from Chinese Excel: read as the pupil-name import reads
 * it) or as the .xlsx workbook itself (its first sheet, read by ../workbook.ts). Columns: 学校, 班级,
 * 年级, 学年 (optional), 姓名, 角色 (学生 / 教师 / 老师 / 班主任), 学号/编号 (or 学号, 编号, 工号), 手机 and
 * 邮箱 (teachers, optional). It is always a bulk file for the schools it names: a person of those
 * schools missing from it is to be removed. Ids are the school's name with the class or the number,
 * hashed: the number itself is never kept. Blank rows are skipped and listed.
 */
import type { KeyObject } from 'node:crypto';
import { emailFromFile } from '../../../email-address.ts';
import { invalidRequest } from '../../../errors.ts';
import { decodeUploadWithEncoding } from '../school/names.ts';
import { personIdHash } from '../school/person-keys.ts';
import { type CsvRecord, type CsvTable, columnReader, parseCsv, tableOfRows } from './csv.ts';
import { type Refusal, type Roster, type RosterRole, readGrade, readPersonName, rosterRef } from './model.ts';

const ID_COLUMNS = ['学号/编号', '学号', '编号', '工号'];
const ROLES: Record<string, { role: RosterRole; enrollment: 'pupil' | 'teacher' | 'head_teacher' }> = {
  学生: { role: 'pupil', enrollment: 'pupil' },
  教师: { role: 'teacher', enrollment: 'teacher' },
  老师: { role: 'teacher', enrollment: 'teacher' },
  班主任: { role: 'teacher', enrollment: 'head_teacher' },
};

/** Does the text look like the template (its header names 学校 and 姓名)? */
export const isTemplate = (text: string) => {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return firstLine.includes('学校') && firstLine.includes('姓名');
};

/** The template as a CSV file. */
export const readTemplateCsv = (bytes: Uint8Array, key: KeyObject): Roster => {
  const { text, encoding } = decodeUploadWithEncoding(bytes);
  return readTemplate(parseCsv(text), { file: 'template.csv', encoding }, key);
};

/**
 * The template as the rows of a workbook's first sheet, its header the first row naming 学校 and 姓名
 * (a title row above it, as a school's sheet often has, is passed over); undefined when no row of the
 * first ten does.
 */
export const readTemplateSheet = (rows: string[][], key: KeyObject): Roster | undefined => {
  const at = rows.slice(0, 10).findIndex((row) => row.includes('学校') && row.includes('姓名'));
  if (at < 0) return undefined;
  const table = tableOfRows(rows.map((row, i) => (i < at ? [] : row)));
  return readTemplate(table, { file: 'template.xlsx', encoding: 'utf-8' }, key);
};

const readTemplate = (
  table: CsvTable,
  source: { file: string; encoding: Roster['encoding'] },
  key: KeyObject,
): Roster => {
  const { file, encoding } = source;
  const required = ['学校', '班级', '年级', '姓名', '角色'];
  const missing = required.find((c) => !table.header.includes(c));
  if (missing) throw invalidRequest(`The template has no ${missing} column.`);
  const idColumn = ID_COLUMNS.find((c) => table.header.includes(c));
  if (!idColumn) throw invalidRequest('The template has no 学号/编号 column.');
  const reading: Reading = {
    key,
    file,
    idColumn,
    get: columnReader(table.header),
    roster: {
      format: 'template',
      encoding,
      modes: { orgs: 'bulk', classes: 'bulk', users: 'bulk', enrollments: 'bulk' },
      orgs: [],
      classes: [],
      users: [],
      enrollments: [],
      refused: [],
      blank: table.blank.map((line) => ({ file, line })),
      rows: table.records.length,
    },
    seen: {
      org: new Set<string>(),
      class: new Set<string>(),
      user: new Map<string, string>(),
      enrollment: new Set<string>(),
    },
  };
  for (const record of table.records) readRow(reading, record);
  return reading.roster;
};

/** What reading the rows shares: the roster they add to, and the ids seen so far (a person's with their name). */
interface Reading {
  key: KeyObject;
  file: string;
  idColumn: string;
  get: (record: CsvRecord, column: string) => string;
  roster: Roster;
  seen: { org: Set<string>; class: Set<string>; user: Map<string, string>; enrollment: Set<string> };
}

/** One row: the school, class and person it names (each once), and the membership joining them. */
const readRow = ({ key, file, idColumn, get, roster, seen }: Reading, record: CsvRecord) => {
  const value = (c: string) => get(record, c);
  const at = { file, line: record.line };
  const refuse = (column: string, reason: Refusal['reason']) => roster.refused.push({ ...at, column, reason });
  const emptyColumn = ['学校', '班级', '姓名', '角色', idColumn].find((c) => value(c) === '');
  if (emptyColumn) return refuse(emptyColumn, 'missing_value');
  const school = value('学校').slice(0, 128);
  const role = ROLES[value('角色')];
  if (!role) return refuse('角色', 'role_not_imported');
  const grade = readGrade(value('年级'));
  if (grade === undefined) return refuse('年级', 'grade');
  const name = readPersonName(value('姓名'));
  if (name === undefined) return refuse('姓名', 'name');
  const schoolYear = value('学年').slice(0, 64);
  const orgRef = rosterRef(key, 'org', `template\u0000${school}`);
  const classRef = rosterRef(key, 'class', `template\u0000${school}\u0000${value('班级')}\u0000${schoolYear}`);
  const userRef = rosterRef(key, 'user', `template\u0000${school}\u0000${value(idColumn)}`);
  // The same number with another name in the same school is two people given one number.
  const known = seen.user.get(userRef);
  if (known !== undefined && known !== name) return refuse(idColumn, 'duplicate_id');
  if (!seen.org.has(orgRef)) {
    seen.org.add(orgRef);
    roster.orgs.push({ ref: orgRef, name: school, deleted: false, at });
  }
  if (!seen.class.has(classRef)) {
    seen.class.add(classRef);
    roster.classes.push({
      ref: classRef,
      orgRef,
      title: value('班级').slice(0, 128),
      grade,
      schoolYear,
      deleted: false,
      at,
    });
  }
  if (known === undefined) {
    seen.user.set(userRef, name);
    roster.users.push({
      ref: userRef,
      idHash: personIdHash(key, value(idColumn)),
      orgRef,
      role: role.role,
      name,
      phone: role.role === 'teacher' ? value('手机').replace(/[\s-]/g, '').slice(0, 32) : '',
      email: role.role === 'teacher' ? emailFromFile(value('邮箱')) : '',
      deleted: false,
      at,
    });
  }
  const enrollmentRef = rosterRef(key, 'enrollment', `${classRef}\u0000${userRef}`);
  if (seen.enrollment.has(enrollmentRef)) return refuse('班级', 'duplicate_id');
  seen.enrollment.add(enrollmentRef);
  roster.enrollments.push({ ref: enrollmentRef, classRef, userRef, role: role.enrollment, deleted: false, at });
};
