/**
 * An address book (adapters/address-book.ts) as a roster, in the shape the files give
 * (model.ts): one school, its classes with the grade of their grade department, pupils in their
 * class, teachers in theirs (head teachers as such), and the guardians each pupil has. Every list is
 * whole, so every part is `bulk`: what the book no longer lists is removed, as a bulk file's is.
 * A graduated grade's classes are removed (archived) and its pupils kept as they are, never created.
 * Ids are the HMACs of the vendor's ids under the app, so two schools' `zhangsan` never meet.
 * Pupils and teachers are keyed in the school by `<vendor>:<userid>` (school/person-keys.ts), the
 * identity the work app's sign-in gives the same person (federation/workapp/), so signing in with
 * WeCom or DingTalk finds the account the roster made. Keys are one a school, so the appId is not in them.
 */
import type { KeyObject } from 'node:crypto';
import type { GuardianRelation } from '@edupass/protocol';
import type { Book } from '../../../adapters/address-book.ts';
import { personIdHash } from '../school/person-keys.ts';
import {
  type RefKind,
  type Roster,
  type RosterClass,
  readGrade,
  readPersonName,
  rosterRef,
  type Where,
} from './model.ts';

export type BookVendor = 'wecom' | 'dingtalk';

/** The vendors' words and DingTalk's codes for a guardian (assumed codes: docs/education.md). */
const RELATIONS: Record<string, GuardianRelation> = {
  爸爸: 'father',
  父亲: 'father',
  F: 'father',
  妈妈: 'mother',
  母亲: 'mother',
  M: 'mother',
};
const GRANDPARENTS = /^(爷爷|奶奶|外公|外婆|姥姥|姥爷|祖父|祖母|外祖父|外祖母|GF|GM|MGF|MGM)$/;

export const relationOf = (word: string): GuardianRelation =>
  RELATIONS[word.trim()] ?? (GRANDPARENTS.test(word.trim()) ? 'grandparent' : 'other');

/** The school year a sync in this month is in: September to August (2026-09 → `2026-2027`). */
export const schoolYearAt = (now: number) => {
  const date = new Date(now + 8 * 3_600_000);
  const year = date.getUTCMonth() >= 8 ? date.getUTCFullYear() : date.getUTCFullYear() - 1;
  return `${year}-${year + 1}`;
};

/**
 * A class's grade: WeCom's standard grade where it is 1–12 (小学一年级 … 高三, assumed: the table is
 * not published), else the grade department's name (一年级, 初二, 高一…), else none.
 */
const gradeOf = (c: Book['classes'][number]) =>
  c.standardGrade !== null && c.standardGrade >= 1 && c.standardGrade <= 12
    ? c.standardGrade
    : (readGrade(c.gradeName) ?? readGrade(c.title) ?? null);

type Ref = (kind: RefKind, id: string) => string;

/** What turning one book into a roster shares: the roster it fills, the refs, the school and its classes. */
interface Reading {
  roster: Roster;
  ref: Ref;
  orgRef: string;
  classes: Map<string, RosterClass>;
  /** A listed pupil's ref, by the vendor's id (graduated pupils left out). */
  pupilRefs: Map<string, string>;
  vendor: BookVendor;
  key: KeyObject;
}

export const bookRoster = (book: Book, source: { vendor: BookVendor; appId: string; key: KeyObject; now: number }) => {
  const ref: Ref = (kind, id) => rosterRef(source.key, kind, `${source.vendor}:${source.appId}:${id}`);
  const roster: Roster = {
    format: source.vendor,
    encoding: 'utf-8',
    modes: { orgs: 'bulk', classes: 'bulk', users: 'bulk', enrollments: 'bulk' },
    orgs: [],
    classes: [],
    users: [],
    enrollments: [],
    guardians: [],
    refused: [],
    blank: [],
    rows: book.classes.length + book.pupils.length + book.teachers.length + book.guardians.length,
  };
  const orgRef = ref('org', 'school');
  const at = { file: 'school', line: 1 };
  roster.orgs.push({ ref: orgRef, name: book.schoolName.trim() || source.appId, deleted: false, at });
  const reading: Reading = {
    roster,
    ref,
    orgRef,
    classes: new Map(),
    pupilRefs: new Map(),
    vendor: source.vendor,
    key: source.key,
  };
  const schoolYear = schoolYearAt(source.now);
  for (const [i, c] of book.classes.entries()) {
    const row: RosterClass = {
      ref: ref('class', c.id),
      orgRef,
      title: c.title.trim() || c.id,
      grade: gradeOf(c),
      schoolYear,
      deleted: c.graduated,
      at: { file: 'classes', line: i + 1 },
    };
    reading.classes.set(c.id, row);
    roster.classes.push(row);
  }
  readPupils(reading, book);
  readTeachers(reading, book);
  const guardians = roster.guardians ?? [];
  for (const g of book.guardians) {
    const childRef = reading.pupilRefs.get(g.pupilId);
    if (childRef === undefined) continue;
    const phone = /^1[3-9]\d{9}$/.test(g.phone) ? g.phone : '';
    guardians.push({
      ref: ref('guardian', `${g.id}:${g.pupilId}`),
      childRef,
      orgRef,
      relation: relationOf(g.relation),
      phone,
    });
  }
  return roster;
};

/** A person of the book, or their refusal when the name is none a pupil list shows. */
const person = (
  { roster, ref, orgRef, vendor, key }: Reading,
  kind: 'pupil' | 'teacher',
  id: string,
  name: string,
  at: Where,
) => {
  const readable = readPersonName(name);
  if (readable === undefined) {
    roster.refused.push({ ...at, column: 'name', reason: 'name' });
    return undefined;
  }
  const idHash = personIdHash(key, `${vendor}:${id}`);
  return { ref: ref('user', `${kind}:${id}`), orgRef, name: readable, deleted: false, at, idHash };
};

/** Pupils in their class; a graduated class's pupils kept as leaving, in no class. */
const readPupils = (reading: Reading, book: Book) => {
  const { roster, ref } = reading;
  for (const [i, p] of book.pupils.entries()) {
    const c = reading.classes.get(p.classId);
    const user = person(reading, 'pupil', p.id, p.name, { file: 'students', line: i + 1 });
    if (!user || !c) continue;
    roster.users.push({ ...user, role: 'pupil', phone: '', email: '', ...(c.deleted ? { leaving: true } : {}) });
    if (c.deleted) continue;
    reading.pupilRefs.set(p.id, user.ref);
    const enrollment = ref('enrollment', `pupil:${p.id}`);
    roster.enrollments.push({
      ref: enrollment,
      classRef: c.ref,
      userRef: user.ref,
      role: 'pupil',
      deleted: false,
      at: user.at,
    });
  }
};

/** Teachers, each in the classes they teach (head teachers as such), matched later by mobile or e-mail. */
const readTeachers = (reading: Reading, book: Book) => {
  const { roster, ref } = reading;
  for (const [i, t] of book.teachers.entries()) {
    const user = person(reading, 'teacher', t.id, t.name, { file: 'teachers', line: i + 1 });
    if (!user) continue;
    roster.users.push({ ...user, role: 'teacher', phone: t.phone, email: t.email });
    for (const of of t.classes) {
      const c = reading.classes.get(of.classId);
      if (!c || c.deleted) continue;
      roster.enrollments.push({
        ref: ref('enrollment', `teacher:${t.id}:${of.classId}`),
        classRef: c.ref,
        userRef: user.ref,
        role: of.head ? 'head_teacher' : 'teacher',
        deleted: false,
        at: user.at,
      });
    }
  }
};
