/**
 * Roster import over HTTP, as the console calls it: OneRoster 1.2 CSV zips and the Chinese-header
 * template, previewed, confirmed, imported again (nothing changes), held when a file removes more
 * than the set share of a school, delta files, hostile zips and refused rows, and jobs swept
 * EDU_ROSTER_JOB_HOURS after upload. (Imported again after a JWT_SECRET rotation:
 * security/secret-rotation.test.ts.)
 */
import { HOUR_MS, routes } from '@edupass/protocol';
import { expectError, signUp, signUpByEmail } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { type RosterFiles, rosterSet, rosterZip } from '@edupass/test-kit/oneroster';
import { movableClock } from '@edupass/test-kit/server-clock';
import { zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { deleteRosterJobsBefore, insertRosterJob } from '../../../store/edu/roster/roster.ts';
import { sweepOnce } from '../../platform/housekeeping.ts';
import { confirmRosterImport } from './jobs.ts';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);
const moveClock = movableClock(server);

interface Job {
  id: number;
  status: string;
  format: string;
  encoding: string;
  counts: Record<string, number>;
  items: { kind: string; action: string; name: string; detail: string }[];
  refused: { file: string; line: number; column: string; reason: string }[];
  holds: { school_id: number; removed: number; listed: number; percent: number }[];
}

const upload = async (bytes: Uint8Array, schoolId?: number) =>
  call<Job>(
    'POST',
    routes.previewRosterImport.path,
    { file_base64: Buffer.from(bytes).toString('base64'), ...(schoolId ? { school_id: schoolId } : {}) },
    { token: await edu.operatorToken() },
  );

const preview = async (bytes: Uint8Array, schoolId?: number) => edu.ok<Job>(await upload(bytes, schoolId));

const confirm = async (id: number, acceptRemovals?: boolean) =>
  call<Job>(
    'POST',
    pathOf(routes.confirmRosterImport.path, { id }),
    acceptRemovals === undefined ? {} : { accept_removals: acceptRemovals },
    { token: await edu.operatorToken() },
  );

const db = () => server.app.ctx.db;

/** Active pupils of the classes of the school named. */
const pupilsOf = async (schoolName: string) => {
  const rows = await db()
    .selectFrom('class_members')
    .innerJoin('classes', 'classes.id', 'class_members.class_id')
    .innerJoin('schools', 'schools.id', 'classes.school_id')
    .select(['class_members.user_id'])
    .where('schools.name', '=', schoolName)
    .where('class_members.role', '=', 'pupil')
    .execute();
  return rows.map((r) => Number(r.user_id));
};

const zeroChanges = (counts: Record<string, number>) =>
  Object.entries(counts).filter(([key, n]) => key !== 'refused' && n !== 0);

describe('OneRoster bulk import', () => {
  const teacherPhone = async () => (await signUp(server)).phone;

  test('preview, confirm, and a second import of the same files changes nothing', async () => {
    const phones = [await teacherPhone(), await teacherPhone()];
    const set = rosterSet({ schools: 2, classesPerSchool: 2, pupilsPerClass: 5, teacherPhones: phones, prefix: 'a-' });
    const zip = rosterZip(set);
    const job = await preview(zip);
    expect(job.status).toBe('preview');
    expect(job.format).toBe('oneroster');
    expect(job.counts).toMatchObject({
      schools_created: 2,
      classes_created: 4,
      pupils_created: 20,
      teachers_matched: 2,
      memberships_created: 22,
      people_removed: 0,
      refused: 0,
    });
    expect(job.items.filter((i) => i.kind === 'pupil' && i.action === 'create')).toHaveLength(20);
    // Nothing changed yet.
    expect(await pupilsOf('第1实验学校a-')).toEqual([]);
    // The job waiting for its confirmation holds the roster, its ids only as HMACs.
    const waiting = await db()
      .selectFrom('roster_jobs')
      .select(['roster', 'preview'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(waiting.roster).not.toBe('');
    expect(`${waiting.roster}${waiting.preview}`).not.toContain('a-p-0');

    const applied = edu.ok<Job>(await confirm(job.id));
    expect(applied.status).toBe('applied');
    const pupils = await pupilsOf('第1实验学校a-');
    expect(pupils).toHaveLength(10);
    const accounts = await db()
      .selectFrom('users')
      .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'users.id')
      .select([
        'users.phone',
        'users.username',
        'users.age_band',
        'users.consent_state',
        'pupil_accounts.initial_password_sealed',
      ])
      .where('users.id', 'in', pupils)
      .execute();
    for (const a of accounts) {
      expect(a.phone).toBeNull();
      expect(a.username).toMatch(/^s\d+[a-z][a-z2-9]{4}$/);
      expect(a.initial_password_sealed).not.toBe('');
      // The file made these schools, so none has an agreement yet: the pupils wait for a guardian.
      expect(a.consent_state).toBe('pending');
    }
    // Ids are kept as HMACs only: no sourcedId (here also the student number) appears in the links or the job.
    const links = await db().selectFrom('roster_links').select('source_hash').execute();
    expect(links.some((l) => l.source_hash.includes('a-p-0'))).toBe(false);
    const stored = await db()
      .selectFrom('roster_jobs')
      .select(['roster', 'preview'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(stored.roster).toBe('');
    expect(`${stored.preview}`).not.toContain('a-p-0');

    const again = await preview(zip);
    expect(zeroChanges(again.counts)).toEqual([]);
    const users = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    edu.ok(await confirm(again.id));
    const after = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(users.n));
    expect(await pupilsOf('第1实验学校a-')).toEqual(pupils);
    // A confirmed job is not applied twice.
    expect((await confirm(job.id)).status).toBe(400);
  });

  test('a file removing 20 % of a school is held until the removals are accepted', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 2, pupilsPerClass: 10, prefix: 'h-' });
    edu.ok(await confirm((await preview(rosterZip(set))).id));
    expect(await pupilsOf('第1实验学校h-')).toHaveLength(20);
    // Four of twenty pupils (20 %) leave the file.
    const gone = new Set(['h-p-0-0-0', 'h-p-0-0-1', 'h-p-0-1-0', 'h-p-0-1-1']);
    const smaller: RosterFiles = {
      ...set,
      users: set.users.filter((u) => !gone.has(u[0] as string)),
      enrollments: set.enrollments.filter((e) => !gone.has(e[5] as string)),
    };
    const held = await preview(rosterZip(smaller));
    expect(held.status).toBe('held');
    expect(held.counts).toMatchObject({ people_removed: 4, memberships_removed: 4 });
    expect(held.holds).toEqual([expect.objectContaining({ removed: 4, listed: 20, percent: 20 })]);
    const refused = await confirm(held.id);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('accept_removals');
    expect(await pupilsOf('第1实验学校h-')).toHaveLength(20);
    edu.ok(await confirm(held.id, true));
    expect(await pupilsOf('第1实验学校h-')).toHaveLength(16);
    // One pupil (5 %, under the 10 % share) coming back is no hold, and finds the same account.
    const back = await preview(
      rosterZip({
        ...smaller,
        users: [...smaller.users, ...set.users.filter((u) => u[0] === 'h-p-0-0-0')],
        enrollments: [...smaller.enrollments, ...set.enrollments.filter((e) => e[5] === 'h-p-0-0-0')],
      }),
    );
    expect(back.status).toBe('preview');
    expect(back.counts).toMatchObject({ pupils_created: 0, people_changed: 1, memberships_created: 1 });
  });

  test('a delta file adds, renames and removes only what it names', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 1, pupilsPerClass: 20, prefix: 'd-' });
    edu.ok(await confirm((await preview(rosterZip(set))).id));
    const header = set.users[0] as string[];
    const renamed = [...(set.users[1] as string[])];
    renamed[8] = '新名';
    renamed[1] = 'active';
    const removed = [...(set.users[2] as string[])];
    removed[1] = 'tobedeleted';
    const added = [...header];
    added[0] = 'd-p-new';
    added[1] = 'active';
    const delta = rosterZip(
      {
        users: [renamed, removed, added],
        enrollments: [['d-e-d-p-new', 'active', '', 'd-class-0-0', 'd-org-0', 'd-p-new', 'student', 'false', '', '']],
      },
      { users: 'delta', enrollments: 'delta' },
    );
    const job = await preview(delta);
    expect(job.counts).toMatchObject({
      pupils_created: 1,
      people_changed: 1,
      people_removed: 1,
      memberships_created: 1,
      memberships_removed: 1,
      classes_removed: 0,
    });
    expect(job.status).toBe('preview');
    edu.ok(await confirm(job.id));
    expect(await pupilsOf('第1实验学校d-')).toHaveLength(20);
    // The renamed pupil: their pupil account and their account's full name.
    const renamedRows = await db()
      .selectFrom('pupil_accounts')
      .innerJoin('users', 'users.id', 'pupil_accounts.user_id')
      .select(['pupil_accounts.display_name', 'users.fullname'])
      .execute()
      // Names are sealed (sealed-records.ts): compared once opened.
      .then((rows) => rows.filter((row) => row.display_name.endsWith('新名')));
    expect(renamedRows).toHaveLength(1);
    expect(renamedRows[0]?.fullname).toBe(renamedRows[0]?.display_name);
  });

  test('a new school year moves every pupil to another class: the memberships follow, and again changes nothing', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 2, pupilsPerClass: 30, prefix: 'y-' });
    edu.ok(await confirm((await preview(rosterZip(set))).id));
    /** Each pupil of the school and the name of their class. */
    const classOfEach = async () =>
      new Map(
        (
          await db()
            .selectFrom('class_members')
            .innerJoin('classes', 'classes.id', 'class_members.class_id')
            .innerJoin('schools', 'schools.id', 'classes.school_id')
            .select(['class_members.user_id', 'classes.name'])
            .where('schools.name', '=', '第1实验学校y-')
            .where('class_members.role', '=', 'pupil')
            .execute()
        ).map((r) => [Number(r.user_id), r.name]),
      );
    const before = await classOfEach();
    expect(before.size).toBe(60);
    const other = (klass: string) => (klass === 'y-class-0-0' ? 'y-class-0-1' : 'y-class-0-0');
    const moved = {
      ...set,
      enrollments: set.enrollments.map((row) => row.map((value, i) => (i === 3 ? other(value) : value))),
    };
    const job = await preview(rosterZip(moved));
    expect(job.counts).toMatchObject({
      memberships_changed: 60,
      memberships_created: 0,
      memberships_removed: 0,
      pupils_created: 0,
      people_removed: 0,
    });
    edu.ok(await confirm(job.id));
    const after = await classOfEach();
    expect(after.size).toBe(60);
    for (const [user, klass] of before)
      expect(after.get(user), `pupil ${user}`).toBe(klass === '1年级1班' ? '2年级2班' : '1年级1班');
    expect(zeroChanges((await preview(rosterZip(moved))).counts)).toEqual([]);
  });

  test('refused rows name the file, the line, the column and why', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 1, pupilsPerClass: 3, prefix: 'r-' });
    const classes = set.classes.map((c) => [...c]);
    // A grade no grade list has (an empty one is optional in 1.2: roster-real-files.test.ts).
    classes.push(['r-class-bad', '', '', '年级不明的班', '九十', '', '', '', '', 'r-org-0', '', '', '', '']);
    const users = set.users.map((u) => [...u]);
    (users[0] as string[])[5] = 'guardian';
    users.push([
      'r-t-x',
      '',
      '',
      'true',
      'r-org-0',
      'teacher',
      '',
      '',
      '老师',
      '无号',
      '',
      '',
      '',
      '',
      '13700000000',
      '',
      '',
      '',
    ]);
    users.push(['r-p-x', '', '', 'true', 'r-org-0', 'student', '', '', '名', '无班', '', '', '', '', '', '', '', '']);
    users.push(['r-p-0-0-1', '', '', 'true', 'r-org-0', 'student', '', '', '重', '复', '', '', '', '', '', '', '', '']);
    const enrollments = [
      ...set.enrollments,
      ['r-e-x', '', '', 'r-class-missing', 'r-org-0', 'r-p-0-0-2', 'student', '', '', ''],
    ];
    const job = await preview(rosterZip({ ...set, classes, users, enrollments }));
    expect(job.refused).toEqual(
      expect.arrayContaining([
        { file: 'classes.csv', line: 3, column: 'grades', reason: 'grade' },
        { file: 'users.csv', line: 2, column: 'role', reason: 'role_not_imported' },
        { file: 'users.csv', line: 5, column: 'phone', reason: 'teacher_without_account' },
        { file: 'users.csv', line: 7, column: 'sourcedId', reason: 'duplicate_id' },
        { file: 'users.csv', line: 6, column: 'enrollments.csv', reason: 'no_class' },
        { file: 'enrollments.csv', line: 5, column: 'classSourcedId', reason: 'unknown_class' },
        {
          file: 'enrollments.csv',
          line: 2,
          column: 'userSourcedId',
          reason: 'user_refused',
          cause: {
            kind: 'person',
            name: '王小明',
            file: 'users.csv',
            line: 2,
            column: 'role',
            reason: 'role_not_imported',
          },
        },
      ]),
    );
    expect(job.counts.pupils_created).toBe(2);
  });
});

describe('class names, unique per school and school year', () => {
  test('a second class of the file with the same title and year is refused, and its pupils’ rows name it', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 2, pupilsPerClass: 2, prefix: 'twin-' });
    const [first, second] = set.classes;
    if (!first || !second) throw new Error('no classes');
    second[3] = first[3] as string;
    const job = await preview(rosterZip(set));
    expect(job.counts).toMatchObject({ classes_created: 1, pupils_created: 2 });
    expect(job.refused).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'classes.csv', line: 3, column: 'title', reason: 'class_name_taken' }),
        expect.objectContaining({ file: 'enrollments.csv', reason: 'class_refused' }),
      ]),
    );
    // The class the file makes is named with its grade and year in the preview.
    expect(job.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'class',
          action: 'create',
          name: first[3],
          grade: 1,
          school_year: '2027',
        }),
      ]),
    );
    expect(edu.ok<Job>(await confirm(job.id)).status).toBe('applied');
  });
});

describe('the Chinese-header template', () => {
  test('a GBK file from Chinese Excel is decoded, said so, and imported', async () => {
    // 学校,班级,年级,学年,姓名,角色,学号/编号 and four rows (one with the role 家长), as Chinese Excel saves it.
    const gbk = Buffer.from(
      'd1a7d0a32cb0e0bcb62cc4eabcb62cd1a7c4ea2cd0d5c3fb2cbdc7c9ab2cd1a7bac52fb1e0bac50d0ab9e2c3f7d0a1d1a72cc8fdc4eabcb6d2bbb0e02cc8fdc4eabcb62c323032362d323032372ccdf5d0a1c3f72cd1a7c9fa2c32303236303030310d0ab9e2c3f7d0a1d1a72cc8fdc4eabcb6d2bbb0e02cc8fdc4eabcb62c323032362d323032372cc0eed7d3baad2cd1a7c9fa2c32303236303030320d0ab9e2c3f7d0a1d1a72ccbc4c4eabcb6b6feb0e02c342c323032362d323032372cd5c5d2bbc5b52cd1a7c9fa2c32303236303030330d0ab9e2c3f7d0a1d1a72ccbc4c4eabcb6b6feb0e02c342c323032362d323032372cd5d4bac6c8bb2cbcd2b3a42c32303236303030340d0a',
      'hex',
    );
    const job = await preview(gbk);
    expect(job).toMatchObject({ format: 'template', encoding: 'gb18030' });
    expect(job.counts).toMatchObject({ schools_created: 1, classes_created: 2, pupils_created: 3, refused: 1 });
    expect(job.refused).toEqual([{ file: 'template.csv', line: 5, column: '角色', reason: 'role_not_imported' }]);
    expect(job.items.filter((i) => i.kind === 'pupil').map((i) => i.name)).toEqual(['王小明', '李子涵', '张一诺']);
    edu.ok(await confirm(job.id));
    const grades = await db()
      .selectFrom('users')
      .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'users.id')
      .innerJoin('schools', 'schools.id', 'pupil_accounts.school_id')
      .select(['pupil_accounts.display_name', 'users.age_band'])
      .where('schools.name', '=', '光明小学')
      .execute()
      .then((rows) =>
        rows
          .filter((row) => ['王小明', '张一诺'].includes(row.display_name))
          .sort((a, b) => (a.display_name < b.display_name ? -1 : 1)),
      );
    expect(grades).toEqual([
      { display_name: '张一诺', age_band: '8_13' },
      { display_name: '王小明', age_band: '8_13' },
    ]);
    expect(zeroChanges((await preview(gbk)).counts)).toEqual([]);
  });
});

describe('two imports of the same schools confirmed at once', () => {
  test('never answer 500 nor make anything twice: each is applied, or E_10 and applied when confirmed again', async () => {
    const set = rosterSet({ schools: 1, classesPerSchool: 2, pupilsPerClass: 5, teacherPhones: [], prefix: 'par-' });
    const zip = rosterZip(set);
    const jobs = [await preview(zip), await preview(zip)];
    const answers = await Promise.all(jobs.map((j) => confirm(j.id)));
    for (const answer of answers) expect([200, 503], JSON.stringify(answer.body)).toContain(answer.status);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 200) continue;
      expectError(answer, 'E_10');
      edu.ok(await confirm(jobs[i]?.id ?? 0));
    }
    const schools = await db().selectFrom('schools').select('id').where('name', '=', '第1实验学校par-').execute();
    expect(schools).toHaveLength(1);
    expect(await pupilsOf('第1实验学校par-')).toHaveLength(10);
  });
});

describe("the school's agreement", () => {
  const consentOf = async (schoolId: number) =>
    (
      await db()
        .selectFrom('users')
        .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'users.id')
        .select('users.consent_state')
        .where('pupil_accounts.school_id', '=', schoolId)
        .execute()
    ).map((row) => row.consent_state);
  const template = (school: string) =>
    new TextEncoder().encode(
      `学校,班级,年级,学年,姓名,角色,学号/编号\n${school},三年级一班,3,2026-2027,王小明,学生,${school}-1\n${school},三年级一班,3,2026-2027,李子涵,学生,${school}-2\n`,
    );

  test("finds a teacher's account by the e-mail in any spelling of its mailbox", async () => {
    const schoolId = await edu.addSchool('邮箱小学');
    const email = `roster${Date.now() % 1e6}@example.com`;
    const teacher = await signUpByEmail(server, email);
    // Full-width letters and upper case, as a spreadsheet may hold the address.
    const spelled = email.replace('@example.com', '@ＥＸＡＭＰＬＥ.com').toUpperCase();
    const rows = `学校,班级,年级,学年,姓名,角色,学号/编号,邮箱\n邮箱小学,三年级一班,3,2026-2027,张老师,班主任,T-1,${spelled}\n`;
    const job = await preview(new TextEncoder().encode(rows), schoolId);
    expect(job.refused).toEqual([]);
    edu.ok(await confirm(job.id));
    const head = await db()
      .selectFrom('class_members')
      .select('role')
      .where('user_id', '=', teacher.userId)
      .executeTakeFirst();
    expect(head?.role).toBe('head_teacher');
  });

  test("stands for under-14 pupils' consent where one is in force; without one they wait for a guardian", async () => {
    const withAgreement = await edu.addSchool('协议小学');
    edu.ok(await confirm((await preview(template('协议小学'), withAgreement)).id));
    expect(await consentOf(withAgreement)).toEqual(['school', 'school']);

    const without = await edu.addSchool('无协议小学', undefined, false);
    edu.ok(await confirm((await preview(template('无协议小学'), without)).id));
    expect(await consentOf(without)).toEqual(['pending', 'pending']);
  });
});

describe('hostile uploads', () => {
  const refusedWith = async (bytes: Uint8Array, message: RegExp) => {
    const answer = await upload(bytes);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect((answer.body as unknown as { error_code: string }).error_code).toBe('E_1');
    expect((answer.body as unknown as { error_message: string }).error_message).toMatch(message);
  };

  test('path traversal, folders and absolute names are refused', async () => {
    const text = new TextEncoder().encode('x');
    for (const name of ['../manifest.csv', 'dir/../../etc/passwd', '/etc/passwd', 'C:\\users.csv', 'a/users.csv']) {
      await refusedWith(zipSync({ [name]: text }), /not a plain file name/);
    }
  });

  test('a zip bomb, too many entries and a file that is no zip are refused', async () => {
    await refusedWith(zipSync({ 'users.csv': new Uint8Array(4 * 1024 * 1024) }), /packed more than 200 to 1/);
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 40; i++) many[`f${i}.csv`] = new Uint8Array([65]);
    await refusedWith(zipSync(many), /more than 16 entries/);
    const broken = rosterZip(rosterSet({ schools: 1, classesPerSchool: 1, pupilsPerClass: 1 })).slice(0, 60);
    await refusedWith(broken, /not a zip that can be read/);
    await refusedWith(new TextEncoder().encode('hello,world\n'), /OneRoster 1.2 CSV set/);
    await refusedWith(zipSync({ 'users.csv': new TextEncoder().encode('a') }), /no manifest.csv/);
  });

  test('a zip whose directory declares less than an entry holds is refused once the entry passes it', async () => {
    const zip = Buffer.from(zipSync({ 'users.csv': new Uint8Array(8 * 1024 * 1024) }));
    // Both size fields say 1000 bytes (local header at 22, central directory entry at 24).
    zip.writeUInt32LE(1000, 22);
    zip.writeUInt32LE(1000, zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    await refusedWith(zip, /holds more than the 1000 bytes it declares/);
  });

  test('a roster for a school that does not exist is E_2; other callers are refused', async () => {
    const zip = rosterZip(rosterSet({ schools: 1, classesPerSchool: 1, pupilsPerClass: 1, prefix: 'x-' }));
    expect((await upload(zip, 999_999)).status).toBe(404);
    const stranger = await signUp(server);
    const answer = await call(
      'POST',
      routes.previewRosterImport.path,
      { file_base64: Buffer.from(zip).toString('base64') },
      { token: stranger.token },
    );
    expect(answer.status).toBe(403);
  });
});

describe('stored jobs', () => {
  test('are deleted EDU_ROSTER_JOB_HOURS after upload by the hourly sweep, confirmed or not', async () => {
    const zipOf = (prefix: string) =>
      rosterZip(rosterSet({ schools: 1, classesPerSchool: 1, pupilsPerClass: 2, prefix }));
    const waiting = await preview(zipOf('sw1-'));
    const applied = await preview(zipOf('sw2-'));
    edu.ok(await confirm(applied.id));
    const stored = async () =>
      (
        await db()
          .selectFrom('roster_jobs')
          .select('id')
          .where('id', 'in', [waiting.id, applied.id])
          .orderBy('id')
          .execute()
      ).map((r) => Number(r.id));
    const { ctx } = server.app;
    const hours = ctx.config.eduRosterJobHours;
    expect(hours).toBe(72);

    moveClock(hours * HOUR_MS - 60_000);
    expect(await sweepOnce(ctx)).toBe(true);
    expect(await stored()).toEqual([waiting.id, applied.id]);

    moveClock(hours * HOUR_MS + 60_000);
    // Past its time a job cannot be confirmed, even before the sweep comes.
    await expect(confirmRosterImport(ctx, undefined, waiting.id, {})).rejects.toMatchObject({ code: 'E_2' });
    expect(await sweepOnce(ctx)).toBe(true);
    expect(await stored()).toEqual([]);
  });

  test('a backlog of old jobs is deleted a few at a time, all of it, and newer jobs stay', async () => {
    const job = (created_at: number) =>
      insertRosterJob(db(), {
        created_by: null,
        school_id: null,
        format: 'oneroster',
        status: 'preview',
        roster: '{}',
        preview: '{}',
        created_at,
        applied_at: null,
      });
    // Uploaded at the dawn of the epoch: older than every other test's jobs, which stay.
    const old = [];
    for (let at = 1; at <= 5; at++) old.push(await job(at));
    const newer = await job(1_000);
    // Counts the DELETE statements run: three of at most two jobs each.
    let deletes = 0;
    const counted = db().withPlugin({
      transformQuery: ({ node }) => {
        if (node.kind === 'DeleteQueryNode') deletes++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    expect(await deleteRosterJobsBefore(counted, 100, 2)).toBe(5);
    expect(deletes).toBe(3);
    const left = await db()
      .selectFrom('roster_jobs')
      .select('id')
      .where(
        'id',
        'in',
        [...old, newer].map((j) => j.id),
      )
      .execute();
    expect(left.map((r) => Number(r.id))).toEqual([Number(newer.id)]);
  });
});
