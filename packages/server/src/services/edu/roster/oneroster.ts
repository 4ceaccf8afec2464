/**
 * OneRoster 1.2 CSV (IMS Global, the CSV binding): `manifest.csv` says which files are there and
 * whether each is `bulk` (the whole roster of the schools it names) or `delta` (changes only, rows
 * carry `status` active or tobedeleted); `orgs.csv`, `academicSessions.csv`, `classes.csv`,
 * `users.csv`, `enrollments.csv` and, in 1.2, `roles.csv` (a user's role per org) are read; the other
 * files of the standard (courses, demographics, results…) are not needed and are left alone. Users
 * with the 1.1 columns `role` and `orgSourcedIds` are read too, since many exporters still write them.
 */
import type { KeyObject } from 'node:crypto';
import { emailFromFile } from '../../../email-address.ts';
import { invalidRequest } from '../../../errors.ts';
import { decodeUploadWithEncoding } from '../school/names.ts';
import { type CsvRecord, columnReader, parseCsv } from './csv.ts';
import {
  type FileMode,
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
    if (!key.startsWith('file.')) continue;
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
  const manifest = entries.get('manifest.csv');
  if (!manifest) throw invalidRequest('The zip has no manifest.csv: it is no OneRoster CSV set.');
  let encoding: Roster['encoding'] = 'utf-8';
  const textOf = (bytes: Uint8Array) => {
    const decoded = decodeUploadWithEncoding(bytes);
    if (decoded.encoding === 'gb18030') encoding = 'gb18030';
    return decoded.text;
  };
  const modes = readManifest(textOf(manifest));
  const refused: Refusal[] = [];
  let rows = 0;
  const refuse = (file: string, record: CsvRecord, column: string, reason: RefusalReason) =>
    refused.push({ file, line: record.line, column, reason });

  /** The file's records when the manifest names it bulk or delta; [] when absent. */
  const tableOf = (name: FileName) => {
    const mode = modes.get(name) ?? 'absent';
    const file = `${name}.csv`;
    const bytes = entries.get(file.toLowerCase());
    if (mode === 'absent') return { mode, records: [] as CsvRecord[], get: columnReader([]), file };
    if (!bytes) throw invalidRequest(`manifest.csv names ${file} as ${mode} but the zip has no ${file}.`);
    const table = parseCsv(textOf(bytes));
    const missing = REQUIRED[name].find((column) => !table.header.includes(column));
    if (missing) throw invalidRequest(`${file} has no ${missing} column.`);
    rows += table.records.length;
    return { mode, records: table.records, get: columnReader(table.header), file };
  };

  /** Status of a row: in a bulk file it must be blank or active; `tobedeleted` marks a removal in a delta. */
  const deletedOf = (mode: FileMode, status: string) => mode === 'delta' && status.toLowerCase() === 'tobedeleted';
  const statusOk = (status: string) => ['', 'active', 'tobedeleted'].includes(status.toLowerCase());

  const ids = new Map<string, Set<string>>();
  /** The row's sourcedId, hashed; undefined (and refused) when blank or seen before in the file. */
  const idOf = (file: string, record: CsvRecord, value: string, kind: 'org' | 'class' | 'user' | 'enrollment') => {
    if (value === '') return void refuse(file, record, 'sourcedId', 'missing_value');
    const seen = ids.get(file) ?? new Set<string>();
    ids.set(file, seen);
    if (seen.has(value)) return void refuse(file, record, 'sourcedId', 'duplicate_id');
    seen.add(value);
    return rosterRef(key, kind, value);
  };

  const orgsTable = tableOf('orgs');
  const orgs: RosterOrg[] = [];
  const schoolOrgs = new Set<string>();
  for (const record of orgsTable.records) {
    const get = (c: string) => orgsTable.get(record, c);
    if (!statusOk(get('status'))) {
      refuse(orgsTable.file, record, 'status', 'status');
      continue;
    }
    // Districts, departments and the like are not schools: their rows are read and left aside.
    if (get('type').toLowerCase() !== 'school') continue;
    const ref = idOf(orgsTable.file, record, get('sourcedId'), 'org');
    if (ref === undefined) continue;
    const name = get('name').slice(0, 128);
    if (name === '') {
      refuse(orgsTable.file, record, 'name', 'missing_value');
      continue;
    }
    schoolOrgs.add(ref);
    orgs.push({
      ref,
      name,
      deleted: deletedOf(orgsTable.mode, get('status')),
      at: { file: orgsTable.file, line: record.line },
    });
  }

  const sessionsTable = tableOf('academicSessions');
  const sessionYears = new Map<string, string>();
  for (const record of sessionsTable.records) {
    const get = (c: string) => sessionsTable.get(record, c);
    sessionYears.set(get('sourcedId'), (get('schoolYear') || get('title')).slice(0, 64));
  }

  const classesTable = tableOf('classes');
  const classes: RosterClass[] = [];
  for (const record of classesTable.records) {
    const get = (c: string) => classesTable.get(record, c);
    const file = classesTable.file;
    if (!statusOk(get('status'))) {
      refuse(file, record, 'status', 'status');
      continue;
    }
    const ref = idOf(file, record, get('sourcedId'), 'class');
    if (ref === undefined) continue;
    const deleted = deletedOf(classesTable.mode, get('status'));
    const title = get('title').slice(0, 128);
    if (title === '' && !deleted) {
      refuse(file, record, 'title', 'missing_value');
      continue;
    }
    const grade = readGrade(get('grades'));
    if (grade === undefined && !deleted) {
      refuse(file, record, 'grades', 'grade');
      continue;
    }
    if (get('schoolSourcedId') === '') {
      refuse(file, record, 'schoolSourcedId', 'missing_value');
      continue;
    }
    const terms = get('termSourcedIds')
      .split(',')
      .map((t) => t.trim());
    const schoolYear = terms.map((t) => sessionYears.get(t)).find((y) => y) ?? '';
    classes.push({
      ref,
      orgRef: rosterRef(key, 'org', get('schoolSourcedId')),
      title,
      grade: grade ?? 0,
      schoolYear,
      deleted,
      at: { file, line: record.line },
    });
  }

  // 1.2 keeps a user's roles per org in roles.csv; 1.1 (and many 1.2 exporters) in users.csv.
  const rolesTable = tableOf('roles');
  const rolesByUser = new Map<string, { role: string; org: string; primary: boolean }[]>();
  for (const record of rolesTable.records) {
    const get = (c: string) => rolesTable.get(record, c);
    if (deletedOf(rolesTable.mode, get('status'))) continue;
    const list = rolesByUser.get(get('userSourcedId')) ?? [];
    list.push({ role: get('role'), org: get('orgSourcedId'), primary: get('roleType').toLowerCase() === 'primary' });
    rolesByUser.set(get('userSourcedId'), list);
  }

  const usersTable = tableOf('users');
  const users: RosterUser[] = [];
  for (const record of usersTable.records) {
    const get = (c: string) => usersTable.get(record, c);
    const file = usersTable.file;
    if (!statusOk(get('status'))) {
      refuse(file, record, 'status', 'status');
      continue;
    }
    const sourcedId = get('sourcedId');
    const ref = idOf(file, record, sourcedId, 'user');
    if (ref === undefined) continue;
    const deleted = deletedOf(usersTable.mode, get('status'));
    const roles = [...(rolesByUser.get(sourcedId) ?? [])].sort((a, b) => Number(b.primary) - Number(a.primary));
    const roleText = get('role') || roles[0]?.role || '';
    const role = roleOf(roleText);
    if (roleText !== '' && role === undefined && !deleted) {
      refuse(file, record, get('role') ? 'role' : 'roles.csv', 'role_not_imported');
      continue;
    }
    const orgIds = [...get('orgSourcedIds').split(','), get('primaryOrgSourcedId'), ...roles.map((r) => r.org)]
      .map((o) => o.trim())
      .filter((o) => o !== '');
    const orgRefs = orgIds.map((o) => rosterRef(key, 'org', o));
    const name = readPersonName(
      `${get('familyName')}${/[\p{Script=Han}]/u.test(get('familyName')) ? '' : ' '}${get('givenName')}`,
    );
    if (name === undefined && !deleted) {
      refuse(file, record, 'givenName', 'name');
      continue;
    }
    users.push({
      ref,
      orgRef: orgRefs.find((o) => schoolOrgs.has(o)) ?? orgRefs[0],
      role,
      name: name ?? '',
      phone: role === 'teacher' ? (get('phone') || get('sms')).replace(/[\s-]/g, '').slice(0, 32) : '',
      email: role === 'teacher' ? emailFromFile(get('email')) : '',
      deleted,
      at: { file, line: record.line },
    });
  }

  const enrollmentsTable = tableOf('enrollments');
  const enrollments: RosterEnrollment[] = [];
  for (const record of enrollmentsTable.records) {
    const get = (c: string) => enrollmentsTable.get(record, c);
    const file = enrollmentsTable.file;
    if (!statusOk(get('status'))) {
      refuse(file, record, 'status', 'status');
      continue;
    }
    const ref = idOf(file, record, get('sourcedId'), 'enrollment');
    if (ref === undefined) continue;
    const role = roleOf(get('role'));
    const deleted = deletedOf(enrollmentsTable.mode, get('status'));
    if (role === undefined && !deleted) {
      refuse(file, record, 'role', 'role_not_imported');
      continue;
    }
    const missing = ['classSourcedId', 'userSourcedId'].find((c) => get(c) === '');
    if (missing) {
      refuse(file, record, missing, 'missing_value');
      continue;
    }
    enrollments.push({
      ref,
      classRef: rosterRef(key, 'class', get('classSourcedId')),
      userRef: rosterRef(key, 'user', get('userSourcedId')),
      role: role === 'teacher' ? (get('primary').toLowerCase() === 'true' ? 'head_teacher' : 'teacher') : 'pupil',
      deleted,
      at: { file, line: record.line },
    });
  }
  return {
    format: 'oneroster',
    encoding,
    modes: {
      orgs: orgsTable.mode,
      classes: classesTable.mode,
      users: usersTable.mode,
      enrollments: enrollmentsTable.mode,
    },
    orgs,
    classes,
    users,
    enrollments,
    refused,
    rows,
  };
};
