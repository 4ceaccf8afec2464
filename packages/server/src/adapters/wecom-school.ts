/**
 * A school's WeCom home-school address book (企业微信 家校沟通), read with a self-built or third-party
 * app's token (`/cgi-bin/gettoken?corpid&corpsecret`, 7200 s): the department tree
 * (`/cgi-bin/school/department/list`: `type` 1 class, 2 grade, 3 stage, 4 campus, 5 school; a grade's
 * `standard_grade`, `register_year` and `is_graduated`; a class's `department_admins` with `type` 3
 * head teacher, 4 subject teacher), the pupils of each class with their `parents[]`
 * (`/cgi-bin/school/user/list?department_id`, no pages: a class at a time) and each teacher's name,
 * mobile and e-mail (`/cgi-bin/user/get?userid`). A parent's `mobile` is absent for third-party apps
 * (and for an app the admin did not allow it): that guardian confirms with a code instead.
 * Errors: 40014 (invalid) and 42001 (expired) access token, fetched again; 45009 (frequency), 45033
 * (concurrency) and -1 (busy), retried.
 */
import { type Book, type BookApp, type BookClass, bookClient, records, textOf } from './address-book.ts';

const WECOM = {
  vendor: 'WeCom',
  tokenErrors: [40014, 42001],
  busyErrors: [45009, 45033, -1],
  tokenUrl: (app: BookApp) =>
    `${app.base}/cgi-bin/gettoken?${new URLSearchParams({ corpid: app.appId, corpsecret: app.secret })}`,
} as const;

const CLASS = 1;
const GRADE = 2;
const SCHOOL = 5;
const HEAD_TEACHER = 3;
const SUBJECT_TEACHER = 4;

export const readWecomBook = async (app: BookApp, now: () => number): Promise<Book> => {
  const { call, counts } = bookClient(WECOM, app, now);
  const departments = records((await call('/cgi-bin/school/department/list', {})).departments);
  const byId = new Map(departments.map((d) => [textOf(d.id), d]));
  /** The grade department above a class (a class's parent is a grade, said the API). */
  const gradeOf = (d: Record<string, unknown>) => {
    let at: Record<string, unknown> | undefined = d;
    for (let depth = 0; at && depth < 10; depth++) {
      if (at.type === GRADE) return at;
      at = byId.get(textOf(at.parentid));
    }
    return undefined;
  };
  const root = departments.find((d) => d.type === SCHOOL) ?? departments.find((d) => textOf(d.parentid) === '0');
  const classes: BookClass[] = [];
  const teachers = new Map<string, { classId: string; head: boolean }[]>();
  for (const d of departments.filter((x) => x.type === CLASS)) {
    const grade = gradeOf(d);
    const id = textOf(d.id);
    classes.push({
      id,
      title: textOf(d.name),
      gradeName: textOf(grade?.name),
      standardGrade: typeof grade?.standard_grade === 'number' ? grade.standard_grade : null,
      graduated: grade?.is_graduated === 1,
    });
    for (const admin of records(d.department_admins)) {
      if (admin.type !== HEAD_TEACHER && admin.type !== SUBJECT_TEACHER) continue;
      const userid = textOf(admin.userid);
      teachers.set(userid, [...(teachers.get(userid) ?? []), { classId: id, head: admin.type === HEAD_TEACHER }]);
    }
  }
  const book: Book = {
    schoolName: textOf(root?.name),
    classes,
    pupils: [],
    teachers: [],
    guardians: [],
    calls: 0,
    retried: 0,
  };
  const seen = new Set<string>();
  for (const c of classes) {
    const answer = await call('/cgi-bin/school/user/list', { department_id: c.id });
    for (const s of records(answer.students)) {
      const id = textOf(s.student_userid);
      // A pupil in several classes (a teaching class beside the administrative one) is taken in the first.
      if (seen.has(id)) continue;
      seen.add(id);
      book.pupils.push({ id, name: textOf(s.name), classId: c.id });
      for (const p of records(s.parents)) {
        book.guardians.push({
          id: textOf(p.parent_userid),
          pupilId: id,
          relation: textOf(p.relation),
          phone: textOf(p.mobile),
        });
      }
    }
  }
  for (const [userid, of] of teachers) {
    const user = await call('/cgi-bin/user/get', { userid });
    book.teachers.push({
      id: userid,
      name: textOf(user.name) || userid,
      phone: textOf(user.mobile),
      email: textOf(user.email),
      classes: of,
    });
  }
  return { ...book, calls: counts.calls, retried: counts.retried };
};
