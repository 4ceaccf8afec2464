/**
 * OneRoster 1.2 CSV sets for tests and the roster bench: the CSV binding's files, written as an
 * exporter writes them, zipped with fflate. `rosterSet` generates schools, classes, pupils, teachers
 * and enrollments with stable sourcedIds, so a second call with the same numbers is the same roster.
 */
import { zipSync } from 'fflate';

export type Mode = 'bulk' | 'delta' | 'absent';

export interface RosterFiles {
  orgs: string[][];
  academicSessions: string[][];
  classes: string[][];
  users: string[][];
  enrollments: string[][];
}

export const HEADERS = {
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
  academicSessions: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'type',
    'startDate',
    'endDate',
    'parentSourcedId',
    'schoolYear',
  ],
  classes: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'grades',
    'courseSourcedId',
    'classCode',
    'classType',
    'location',
    'schoolSourcedId',
    'termSourcedIds',
    'subjects',
    'subjectCodes',
    'periods',
  ],
  users: [
    'sourcedId',
    'status',
    'dateLastModified',
    'enabledUser',
    'orgSourcedIds',
    'role',
    'username',
    'userIds',
    'givenName',
    'familyName',
    'middleName',
    'identifier',
    'email',
    'sms',
    'phone',
    'agentSourcedIds',
    'grades',
    'password',
  ],
  enrollments: [
    'sourcedId',
    'status',
    'dateLastModified',
    'classSourcedId',
    'schoolSourcedId',
    'userSourcedId',
    'role',
    'primary',
    'beginDate',
    'endDate',
  ],
} as const;

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
export const csvText = (header: readonly string[], rows: string[][]) =>
  `${[header as string[], ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;

/** The zip of a set; `modes` says each file's manifest entry (a file marked absent is left out). */
export const rosterZip = (
  files: Partial<RosterFiles>,
  modes: Partial<Record<keyof RosterFiles, Mode>> = {},
  extra: Record<string, Uint8Array> = {},
): Uint8Array => {
  const encoder = new TextEncoder();
  const entries: Record<string, Uint8Array> = {};
  const manifest: string[][] = [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.2'],
  ];
  for (const name of Object.keys(HEADERS) as (keyof RosterFiles)[]) {
    const rows = files[name];
    const mode = modes[name] ?? (rows ? 'bulk' : 'absent');
    manifest.push([`file.${name}`, mode]);
    if (rows && mode !== 'absent') entries[`${name}.csv`] = encoder.encode(csvText(HEADERS[name], rows));
  }
  manifest.push(['source.systemName', 'test SIS']);
  entries['manifest.csv'] = encoder.encode(csvText(['propertyName', 'value'], manifest));
  return zipSync({ ...entries, ...extra });
};

const FAMILY = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周'];
const GIVEN = ['小明', '子涵', '一诺', '浩然', '欣怡', '梓轩', '雨桐', '宇轩', '思远', '佳怡'];

export interface RosterShape {
  schools: number;
  classesPerSchool: number;
  pupilsPerClass: number;
  /** Phones of teachers that have accounts: one teacher a class, taken in order (none: no teachers). */
  teacherPhones?: string[];
  /** A prefix of every sourcedId, so two sets do not meet. */
  prefix?: string;
}

/** A generated roster: rows of each file. Pupil i of class c of school s is `<prefix>p-s-c-i`. */
export const rosterSet = (shape: RosterShape): RosterFiles => {
  const p = shape.prefix ?? '';
  const files: RosterFiles = {
    orgs: [],
    academicSessions: [[`${p}term-2026`, '', '', '2026-2027 第一学期', 'term', '2026-09-01', '2027-01-20', '', '2027']],
    classes: [],
    users: [],
    enrollments: [],
  };
  let teacher = 0;
  for (let s = 0; s < shape.schools; s++) {
    const org = `${p}org-${s}`;
    files.orgs.push([org, '', '', `第${s + 1}实验学校${p}`, 'school', `S${s}`, '']);
    for (let c = 0; c < shape.classesPerSchool; c++) {
      const klass = `${p}class-${s}-${c}`;
      const grade = String((c % 6) + 1).padStart(2, '0');
      files.classes.push([
        klass,
        '',
        '',
        `${(c % 6) + 1}年级${c + 1}班`,
        grade,
        '',
        '',
        'homeroom',
        '',
        org,
        `${p}term-2026`,
        '',
        '',
        '',
      ]);
      const phone = shape.teacherPhones?.[teacher];
      if (phone !== undefined) {
        teacher += 1;
        const id = `${p}t-${s}-${c}`;
        files.users.push([
          id,
          '',
          '',
          'true',
          org,
          'teacher',
          '',
          '',
          '老师',
          `${FAMILY[c % 10]}`,
          '',
          '',
          '',
          '',
          phone,
          '',
          '',
          '',
        ]);
        files.enrollments.push([`${p}e-${id}`, '', '', klass, org, id, 'teacher', 'true', '', '']);
      }
      for (let i = 0; i < shape.pupilsPerClass; i++) {
        const id = `${p}p-${s}-${c}-${i}`;
        files.users.push([
          id,
          '',
          '',
          'true',
          org,
          'student',
          '',
          '',
          GIVEN[i % 10] as string,
          FAMILY[(i + c) % 10] as string,
          '',
          `2026${s}${c}${i}`,
          '',
          '',
          '',
          '',
          grade,
          '',
        ]);
        files.enrollments.push([`${p}e-${id}`, '', '', klass, org, id, 'student', 'false', '', '']);
      }
    }
  }
  return files;
};
