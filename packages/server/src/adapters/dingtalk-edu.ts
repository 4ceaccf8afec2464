/**
 * A school's DingTalk K12 home-school address book (钉钉 家校通讯录), read with an app's token
 * (`/gettoken?appkey&appsecret`, 7200 s). Every list is POSTed with pages of at most 30 (`page_no`
 * from 1, `page_size`, answered with `result.has_more`): the department tree
 * (`/topapi/edu/dept/list`, a level at a time under `super_id`: campus, period, grade, class), each
 * class's people by role (`/topapi/edu/user/list`, `role` teacher | guardian | student) and who is
 * whose guardian (`/topapi/edu/user/relation/list`); teachers' mobile and e-mail from the staff
 * directory (`/topapi/v2/user/get`). No list gives a guardian's mobile: DingTalk guardians confirm
 * with a code the school hands over. docs/education.md lists the fields this assumes (DingTalk does
 * not publish them all). Errors: 40014 and 42001 (token), fetched again; 90018 and 90002 (frequency)
 * and -1 (busy), retried.
 */
import { type Book, type BookApp, type BookClass, bookClient, records, textOf } from './address-book.ts';

const DINGTALK = {
  vendor: 'DingTalk',
  tokenErrors: [40014, 42001],
  busyErrors: [90018, 90002, -1],
  tokenUrl: (app: BookApp) =>
    `${app.base}/gettoken?${new URLSearchParams({ appkey: app.appId, appsecret: app.secret })}`,
} as const;

/** DingTalk's largest page of these lists. */
export const DINGTALK_PAGE = 30;

/** A JSON string field (`feature`) as an object; {} when it is none. */
const featureOf = (value: unknown): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(typeof value === 'string' ? value : '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export const readDingtalkBook = async (app: BookApp, now: () => number): Promise<Book> => {
  const { call, counts } = bookClient(DINGTALK, app, now);
  /** Every page of a list, in order. */
  const pages = async (path: string, body: Record<string, unknown>, field: string) => {
    const rows: Record<string, unknown>[] = [];
    for (let page = 1; ; page++) {
      const answer = await call(path, {}, { ...body, page_no: page, page_size: DINGTALK_PAGE });
      const result = (answer.result ?? {}) as Record<string, unknown>;
      rows.push(...records(result[field]));
      if (result.has_more !== true) return rows;
    }
  };
  const classes: BookClass[] = [];
  let schoolName = '';
  // The tree a level at a time: campuses at the top, then periods, grades and classes.
  let level: { id: string | undefined; grade?: Record<string, unknown> }[] = [{ id: undefined }];
  for (let depth = 0; level.length > 0 && depth < 6; depth++) {
    const next: typeof level = [];
    for (const parent of level) {
      const body = parent.id === undefined ? {} : { super_id: Number(parent.id) };
      for (const d of await pages('/topapi/edu/dept/list', body, 'details')) {
        const type = textOf(d.dept_type);
        const id = textOf(d.dept_id);
        if (type === 'campus' && !schoolName) schoolName = textOf(d.name);
        if (type === 'class') {
          const grade = parent.grade ?? {};
          classes.push({
            id,
            title: textOf(d.name),
            gradeName: textOf(grade.name),
            standardGrade: null,
            graduated: featureOf(grade.feature).graduated === true,
          });
        } else next.push({ id, grade: type === 'grade' ? d : parent.grade });
      }
    }
    level = next;
  }
  const book: Book = { schoolName, classes, pupils: [], teachers: [], guardians: [], calls: 0, retried: 0 };
  const teacherClasses = new Map<string, { name: string; classes: { classId: string; head: boolean }[] }>();
  const seen = new Set<string>();
  for (const c of classes) {
    const classId = Number(c.id);
    for (const s of await pages('/topapi/edu/user/list', { role: 'student', class_id: classId }, 'details')) {
      const id = textOf(s.userid);
      if (seen.has(id)) continue;
      seen.add(id);
      book.pupils.push({ id, name: textOf(s.name), classId: c.id });
    }
    for (const t of await pages('/topapi/edu/user/list', { role: 'teacher', class_id: classId }, 'details')) {
      const id = textOf(t.userid);
      const entry = teacherClasses.get(id) ?? { name: textOf(t.name), classes: [] };
      entry.classes.push({ classId: c.id, head: featureOf(t.feature).is_adviser === 1 });
      teacherClasses.set(id, entry);
    }
    for (const r of await pages('/topapi/edu/user/relation/list', { class_id: classId }, 'relations')) {
      book.guardians.push({
        id: textOf(r.from_userid),
        pupilId: textOf(r.to_userid),
        relation: textOf(r.relation_code),
        phone: '',
      });
    }
  }
  for (const [userid, entry] of teacherClasses) {
    const user = ((await call('/topapi/v2/user/get', {}, { userid })).result ?? {}) as Record<string, unknown>;
    book.teachers.push({
      id: userid,
      name: textOf(user.name) || entry.name,
      phone: textOf(user.mobile),
      email: textOf(user.email),
      classes: entry.classes,
    });
  }
  return { ...book, calls: counts.calls, retried: counts.retried };
};
