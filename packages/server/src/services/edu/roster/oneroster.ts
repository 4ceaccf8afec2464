/**
 * OneRoster 1.2 CSV (IMS Global, the CSV binding): `manifest.csv` says which files are there and
 * whether each is `bulk` (the whole roster of the schools it names) or `delta` (changes only, rows
 * carry `status` active or tobedeleted); `orgs.csv`, `academicSessions.csv`, `classes.csv`,
 * `users.csv`, `enrollments.csv` and, in 1.2, `roles.csv` (a user's role per org) are read; the other
 * files of the standard (courses, demographics, results…) are not needed and are left alone. Users
 * with the 1.1 columns `role` and `orgSourcedIds` are read too, since many exporters still write them,
 * and so is a class's 1.1 `grade` column. What 1.2 makes optional is optional: a manifest entry left
 * empty is a file that is absent, and a class without grades takes the lowest grade its pupils' rows
 * give (users.csv `grades`), or none (plan-classes.ts decides). Blank lines are skipped and listed.
 */
import type { KeyObject } from 'node:crypto';
import { emailFromFile } from '../../../email-address.ts';
import { invalidRequest } from '../../../errors.ts';
import { decodeUploadWithEncoding } from '../school/names.ts';
import { personIdHash } from '../school/person-keys.ts';
import { type CsvRecord, columnReader, parseCsv } from './csv.ts';
import {
  type FileMode,
  type RefKind,
  type Refusal,
  type RefusalReason,
  type Roster,
  type RosterClass,
  type RosterEnrollment,
  type RosterOrg,
  type RosterRole,
  type RosterUser,
  readGrade,
  readPersonName,
  rosterRef,
  type Subject,
} from './model.ts';

const FILES = ['orgs', 'academicSessions', 'classes', 'users', 'enrollments', 'roles'] as const;
type FileName = (typeof FILES)[number];

/** Columns a file must have (the binding's required ones this import reads). */
const REQUIRED: Record<FileName, string[]> = {
  orgs: ['sourcedId', 'name', 'type'],
  academicSessions: ['sourcedId', 'title'],
  classes: ['sourcedId', 'title', 'schoolSourcedId'],
  users: ['sourcedId', 'givenName', 'familyName'],
  enrollments: ['sourcedId', 'classSourcedId', 'userSourcedId', 'role'],
  roles: ['userSourcedId', 'role', 'orgSourcedId'],
};

const PUPIL_ROLES = new Set(['student']);
const TEACHER_ROLES = new Set(['teacher', 'aide']);

const roleOf = (role: string): RosterRole | undefined =>
  PUPIL_ROLES.has(role) ? 'pupil' : TEACHER_ROLES.has(role) ? 'teacher' : undefined;

/** The manifest's `file.<name>` modes; E_1 for a manifest that is missing or not 1.2/1.1. */
const readManifest = (text: string): Map<string, FileMode> => {
  const table = parseCsv(text);
  const get = columnReader(table.header);
  const values = new Map(table.records.map((r) => [get(r, 'propertyName'), get(r, 'value').toLowerCase()]));
  const version = values.get('oneroster.version');
  if (version !== '1.2' && version !== '1.1') {
    throw invalidRequest('manifest.csv must name oneroster.version 1.2 (or 1.1).');
  }
  const modes = new Map<string, FileMode>();
  for (const [key, value] of values) {
    // An entry left empty (as some exporters write the ones they do not fill) names no file.
    if (!key.startsWith('file.') || value === '') continue;
    if (value !== 'bulk' && value !== 'delta' && value !== 'absent') {
      throw invalidRequest(`manifest.csv: ${key} must be bulk, delta or absent.`);
    }
    modes.set(key.slice('file.'.length), value);
  }
  return modes;
};

export interface OneRosterInput {
  /** Entries of the zip by lower-cased name. */
  entries: Map<string, Uint8Array>;
  key: KeyObject;
}

export const readOneRoster = ({ entries, key }: OneRosterInput): Roster => {
  const reading = startReading(entries, key);
  const orgs = readOrgs(reading);
  const sessionYears = readSessionYears(reading);
  const classes = readClasses(reading, sessionYears);
  const rolesByUser = readRoles(reading);
  const users = readUsers(reading, orgs.schools, rolesByUser);
  const enrollments = readEnrollments(reading);
  gradeFromPupils(classes.items, users.grades, enrollments.items);
  return {
    format: 'oneroster',
    encoding: reading.encoding,
    modes: { orgs: orgs.mode, classes: classes.mode, users: users.mode, enrollments: enrollments.mode },
    orgs: orgs.items,
    classes: classes.items,
    users: users.items,
    enrollments: enrollments.items,
    refused: reading.refused,
    blank: reading.blank,
    rows: reading.rows,
  };
};

/** One file of the set as read: its mode, its records, a reader of their columns. */
interface Table {
  mode: FileMode;
  records: CsvRecord[];
  get: (record: CsvRecord, column: string) => string;
  file: string;
}

/** What reading the files of a set shares: how the text was decoded, the rows read and refused. */
interface Reading {
  key: KeyObject;
  encoding: Roster['encoding'];
  rows: number;
  refused: Refusal[];
  blank: Roster['blank'];
  /** The file's records when the manifest names it bulk or delta; none when absent. */
  tableOf: (name: FileName) => Table;
  refuse: (file: string, record: CsvRecord, column: string, reason: RefusalReason, subject?: Subject) => void;
  /** The row's sourcedId, hashed; undefined (and refused) when blank or seen before in the file. */
  idOf: (file: string, record: CsvRecord, value: string, kind: RefKind) => string | undefined;
}

/** Reads the manifest; E_1 without one. */
const startReading = (entries: Map<string, Uint8Array>, key: KeyObject): Reading => {
  const manifest = entries.get('manifest.csv');
  if (!manifest) throw invalidRequest('The zip has no manifest.csv: it is no OneRoster CSV set.');
  const ids = new Map<string, Set<string>>();
  const reading: Reading = {
    key,
    encoding: 'utf-8',
    rows: 0,
    refused: [],
    blank: [],
    tableOf: (name) => {
      const mode = modes.get(name) ?? 'absent';
      const file = `${name}.csv`;
      const bytes = entries.get(file.toLowerCase());
      if (mode === 'absent') return { mode, records: [] as CsvRecord[], get: columnReader([]), file };
      if (!bytes) throw invalidRequest(`manifest.csv names ${file} as ${mode} but the zip has no ${file}.`);
      const table = parseCsv(textOf(bytes));
      const missing = REQUIRED[name].find((column) => !table.header.includes(column));
      if (missing) throw invalidRequest(`${file} has no ${missing} column.`);
      reading.rows += table.records.length;
      reading.blank.push(...table.blank.map((line) => ({ file, line })));
      return { mode, records: table.records, get: columnReader(table.header), file };
    },
    refuse: (file, record, column, reason, subject) =>
      reading.refused.push({ file, line: record.line, column, reason, ...(subject ? { subject } : {}) }),
    idOf: (file, record, value, kind) => {
      if (value === '') return void reading.refuse(file, record, 'sourcedId', 'missing_value');
      const seen = ids.get(file) ?? new Set<string>();
      ids.set(file, seen);
      if (seen.has(value)) return void reading.refuse(file, record, 'sourcedId', 'duplicate_id');
      seen.add(value);
      return rosterRef(key, kind, value);
    },
  };
  const textOf = (bytes: Uint8Array) => {
    const decoded = decodeUploadWithEncoding(bytes);
    if (decoded.encoding === 'gb18030') reading.encoding = 'gb18030';
    return decoded.text;
  };
  const modes = readManifest(textOf(manifest));
  return reading;
};

/** Status of a row: in a bulk file it must be blank or active; `tobedeleted` marks a removal in a delta. */
const deletedOf = (mode: FileMode, status: string) => mode === 'delta' && status.toLowerCase() === 'tobedeleted';
const statusOk = (status: string) => ['', 'active', 'tobedeleted'].includes(status.toLowerCase());

/** The school orgs; districts, departments and the like are not schools: their rows are left aside. */
const readOrgs = ({ tableOf, refuse, idOf }: Reading) => {
  const table = tableOf('orgs');
  const items: RosterOrg[] = [];
  const schools = new Set<string>();
  for (const record of table.records) {
    const get = (c: string) => table.get(record, c);
    if (!statusOk(get('status'))) {
      refuse(table.file, record, 'status', 'status');
      continue;
    }
    if (get('type').toLowerCase() !== 'school') continue;
    const ref = idOf(table.file, record, get('sourcedId'), 'org');
    if (ref === undefined) continue;
    const name = get('name').slice(0, 128);
    if (name === '') {
      refuse(table.file, record, 'name', 'missing_value', { kind: 'school', ref, name });
      continue;
    }
    schools.add(ref);
    items.push({
      ref,
      name,
      deleted: deletedOf(table.mode, get('status')),
      at: { file: table.file, line: record.line },
    });
  }
  return { mode: table.mode, items, schools };
};

/** Each academic session's school year (its title when it names none). */
const readSessionYears = ({ tableOf }: Reading) => {
  const table = tableOf('academicSessions');
  const years = new Map<string, string>();
  for (const record of table.records) {
    const get = (c: string) => table.get(record, c);
    years.set(get('sourcedId'), (get('schoolYear') || get('title')).slice(0, 64));
  }
  return years;
};

const readClasses = ({ key, tableOf, refuse, idOf }: Reading, sessionYears: Map<string, string>) => {
  const table = tableOf('classes');
  const { file } = table;
  const items: RosterClass[] = [];
  for (const record of table.records) {
    const get = (c: string) => table.get(record, c);
    if (!statusOk(get('status'))) {
      refuse(file, record, 'status', 'status');
      continue;
    }
    const ref = idOf(file, record, get('sourcedId'), 'class');
    if (ref === undefined) continue;
    const deleted = deletedOf(table.mode, get('status'));
    const title = get('title').slice(0, 128);
    const subject: Subject = { kind: 'class', ref, name: title };
    if (title === '' && !deleted) {
      refuse(file, record, 'title', 'missing_value', subject);
      continue;
    }
    // 1.2's `grades` (optional), or 1.1's `grade` as some exporters still write it.
    const gradeColumn = get('grades') !== '' || get('grade') === '' ? 'grades' : 'grade';
    const grade = get(gradeColumn) === '' ? null : readGrade(get(gradeColumn));
    if (grade === undefined && !deleted) {
      refuse(file, record, gradeColumn, 'grade', subject);
      continue;
    }
    if (get('schoolSourcedId') === '') {
      refuse(file, record, 'schoolSourcedId', 'missing_value', subject);
      continue;
    }
    const terms = get('termSourcedIds')
      .split(',')
      .map((t) => t.trim());
    const schoolYear = terms.map((t) => sessionYears.get(t)).find((y) => y) ?? '';
    items.push({
      ref,
      orgRef: rosterRef(key, 'org', get('schoolSourcedId')),
      title,
      grade: grade ?? null,
      schoolYear,
      deleted,
      at: { file, line: record.line },
    });
  }
  return { mode: table.mode, items };
};

type RolesByUser = Map<string, { role: string; org: string; primary: boolean }[]>;

/** 1.2 keeps a user's roles per org in roles.csv; 1.1 (and many 1.2 exporters) in users.csv. */
const readRoles = ({ tableOf }: Reading): RolesByUser => {
  const table = tableOf('roles');
  const rolesByUser: RolesByUser = new Map();
  for (const record of table.records) {
    const get = (c: string) => table.get(record, c);
    if (deletedOf(table.mode, get('status'))) continue;
    const list = rolesByUser.get(get('userSourcedId')) ?? [];
    list.push({ role: get('role'), org: get('orgSourcedId'), primary: get('roleType').toLowerCase() === 'primary' });
    rolesByUser.set(get('userSourcedId'), list);
  }
  return rolesByUser;
};

const readUsers = ({ key, tableOf, refuse, idOf }: Reading, schoolOrgs: Set<string>, rolesByUser: RolesByUser) => {
  const table = tableOf('users');
  const { file } = table;
  const items: RosterUser[] = [];
  /** Pupils' grades (users.csv `grades`), for their classes that give none. */
  const grades = new Map<string, number>();
  for (const record of table.records) {
    const get = (c: string) => table.get(record, c);
    if (!statusOk(get('status'))) {
      refuse(file, record, 'status', 'status');
      continue;
    }
    const sourcedId = get('sourcedId');
    const ref = idOf(file, record, sourcedId, 'user');
    if (ref === undefined) continue;
    const deleted = deletedOf(table.mode, get('status'));
    const name = readPersonName(
      `${get('familyName')}${/[\p{Script=Han}]/u.test(get('familyName')) ? '' : ' '}${get('givenName')}`,
    );
    const subject: Subject = { kind: 'person', ref, name: name ?? '' };
    const roles = [...(rolesByUser.get(sourcedId) ?? [])].sort((a, b) => Number(b.primary) - Number(a.primary));
    const roleText = get('role') || roles[0]?.role || '';
    const role = roleOf(roleText);
    if (roleText !== '' && role === undefined && !deleted) {
      refuse(file, record, get('role') ? 'role' : 'roles.csv', 'role_not_imported', subject);
      continue;
    }
    const orgIds = [...get('orgSourcedIds').split(','), get('primaryOrgSourcedId'), ...roles.map((r) => r.org)]
      .map((o) => o.trim())
      .filter((o) => o !== '');
    const orgRefs = orgIds.map((o) => rosterRef(key, 'org', o));
    if (name === undefined && !deleted) {
      refuse(file, record, 'givenName', 'name', subject);
      continue;
    }
    const grade = role === 'teacher' ? undefined : readGrade(get('grades'));
    if (grade !== undefined) grades.set(ref, grade);
    items.push({
      ref,
      idHash: personIdHash(key, sourcedId),
      orgRef: orgRefs.find((o) => schoolOrgs.has(o)) ?? orgRefs[0],
      role,
      name: name ?? '',
      phone: role === 'teacher' ? (get('phone') || get('sms')).replace(/[\s-]/g, '').slice(0, 32) : '',
      email: role === 'teacher' ? emailFromFile(get('email')) : '',
      deleted,
      at: { file, line: record.line },
    });
  }
  return { mode: table.mode, items, grades };
};

/** A class the file gives no grade takes the lowest its pupils' rows give (the youngest, for their age band). */
const gradeFromPupils = (classes: RosterClass[], grades: Map<string, number>, enrollments: RosterEnrollment[]) => {
  const lowest = new Map<string, number>();
  for (const e of enrollments) {
    const grade = grades.get(e.userRef);
    if (e.role !== 'pupil' || e.deleted || grade === undefined) continue;
    lowest.set(e.classRef, Math.min(grade, lowest.get(e.classRef) ?? grade));
  }
  for (const c of classes) if (c.grade === null) c.grade = lowest.get(c.ref) ?? null;
};

const readEnrollments = ({ key, tableOf, refuse, idOf }: Reading) => {
  const table = tableOf('enrollments');
  const { file } = table;
  const items: RosterEnrollment[] = [];
  for (const record of table.records) {
    const get = (c: string) => table.get(record, c);
    if (!statusOk(get('status'))) {
      refuse(file, record, 'status', 'status');
      continue;
    }
    const ref = idOf(file, record, get('sourcedId'), 'enrollment');
    if (ref === undefined) continue;
    const role = roleOf(get('role'));
    const deleted = deletedOf(table.mode, get('status'));
    if (role === undefined && !deleted) {
      refuse(file, record, 'role', 'role_not_imported');
      continue;
    }
    const missing = ['classSourcedId', 'userSourcedId'].find((c) => get(c) === '');
    if (missing) {
      refuse(file, record, missing, 'missing_value');
      continue;
    }
    items.push({
      ref,
      classRef: rosterRef(key, 'class', get('classSourcedId')),
      userRef: rosterRef(key, 'user', get('userSourcedId')),
      role: role === 'teacher' ? (get('primary').toLowerCase() === 'true' ? 'head_teacher' : 'teacher') : 'pupil',
      deleted,
      at: { file, line: record.line },
    });
  }
  return { mode: table.mode, items };
};
