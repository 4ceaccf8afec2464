/**
 * Schools' address books as roster sources over HTTP, through the test kit's WeCom and DingTalk
 * stand-ins serving a 1,200-pupil school (2,000 guardians; DingTalk in pages of 30): exact counts in
 * the preview, a second sync that changes nothing, a pupil who moved class, a graduated grade whose
 * classes are archived, a removed pupil held for the admin's confirmation, the vendors' frequency
 * limits and expired tokens ridden out, and the hourly sweep's scheduled sync with its report.
 */
import { HOUR_MS, routes } from '@edupass/protocol';
import { expectError, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { schoolBook } from '@edupass/test-kit/address-book-school';
import { startSchoolBook } from '@edupass/test-kit/address-book-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { movableClock } from '@edupass/test-kit/server-clock';
import { afterAll, describe, expect, test } from 'vitest';
import { sweepOnce } from '../../platform/housekeeping.ts';

const { server, call } = useTestServer();
const moveClock = movableClock(server);
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing) await close();
});

const db = () => server.app.ctx.db;

/** Every count but the refused rows: what a sync would change. */
const changes = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([key, n]) => key !== 'refused' && n !== 0));

const classOfPupil = async (schoolId: number, name: string) =>
  db()
    .selectFrom('class_members')
    .innerJoin('classes', 'classes.id', 'class_members.class_id')
    .innerJoin('pupil_accounts', 'pupil_accounts.user_id', 'class_members.user_id')
    .select(['classes.name', 'pupil_accounts.display_name'])
    .where('classes.school_id', '=', schoolId)
    .where('class_members.role', '=', 'pupil')
    .execute()
    // Names are sealed (sealed-records.ts): compared once opened.
    .then((rows) => rows.filter((row) => row.display_name === name).map((row) => ({ name: row.name })));

describe.each(['wecom', 'dingtalk'] as const)('%s address book', (vendor) => {
  test('1,200 pupils synced with exact counts; again changes nothing; a move, a graduation, a removal held', async () => {
    const teacherPhones = [];
    for (let i = 0; i < 5; i++) teacherPhones.push((await signUp(server)).phone);
    const book = schoolBook({
      name: `${vendor === 'wecom' ? '企微' : '钉钉'}实验小学 ${Date.now() % 100_000}`,
      teacherPhones,
      mobilePrefix: vendor === 'wecom' ? '1391' : '1392',
    });
    const school = await startSchoolBook(server, call, vendor, book);
    closing.push(() => school.peer.close());
    const matched = new Set(book.teachers.slice(0, 5).map((t) => t.id));
    const teacherSeats = book.classes.flatMap((c) => [c.headTeacher, ...c.teachers]).filter((t) => matched.has(t));
    const withMobile = book.guardians.filter((g) => g.mobile !== null).length;
    // WeCom gives a self-built app the parents' mobiles it has; DingTalk's lists give none.
    const phones = vendor === 'wecom' ? withMobile : 0;

    const started = performance.now();
    const job = await school.sync();
    const previewed = performance.now();
    expect(job.status).toBe('preview');
    expect(job.format).toBe(vendor);
    expect(changes(job.counts)).toEqual({
      schools_matched: 1,
      classes_created: 30,
      pupils_created: 1200,
      teachers_matched: 5,
      memberships_created: 1200 + teacherSeats.length,
      ...(phones > 0 ? { guardians_pending: phones } : {}),
      guardians_to_confirm: 2000 - phones,
    });
    // 55 teachers without an EduPass account, and their 84 seats in classes.
    expect(job.counts.refused).toBe(55 + (90 - teacherSeats.length));
    expect(new Set(job.refused.map((r) => r.reason))).toEqual(new Set(['teacher_without_account', 'user_refused']));
    const applied = school.edu.ok<{ status: string }>(await school.confirm(job.id));
    expect(applied.status).toBe('applied');
    const took = performance.now() - started;
    console.log(
      `${vendor}: 1,200 pupils, 2,000 guardians: read and previewed in ${Math.round(previewed - started)} ms, applied in ${Math.round(took - (previewed - started))} ms, ${Math.round(took)} ms in all (${school.peer.calls.length} calls to the stand-in)`,
    );
    expect(took).toBeLessThan(60_000);
    if (vendor === 'dingtalk') {
      // 40 pupils a class, read in pages of at most 30: two pages each.
      expect(school.peer.calls.filter((p) => p === '/topapi/edu/user/list').length).toBeGreaterThan(60);
    }
    const pupils = await db()
      .selectFrom('pupil_accounts')
      .innerJoin('users', 'users.id', 'pupil_accounts.user_id')
      .select(['users.age_band', 'pupil_accounts.display_name'])
      .where('pupil_accounts.school_id', '=', school.schoolId)
      .execute();
    expect(pupils).toHaveLength(1200);
    // 一年级 pupils are 6–7: under 8; 六年级 pupils 11–12: 8 to 13.
    const firstGrader = book.pupils[0]?.name as string;
    const sixthGrader = book.pupils[1199]?.name as string;
    expect(pupils.find((p) => p.display_name === firstGrader)?.age_band).toBe('under_8');
    expect(pupils.find((p) => p.display_name === sixthGrader)?.age_band).toBe('8_13');

    // The same book again: nothing to change.
    const again = await school.sync();
    expect(changes(again.counts)).toEqual({});
    expect(again.status).toBe('preview');

    // A pupil moves from 一年级一班 to 一年级二班: one membership moves, nothing else.
    const mover = book.pupils[3] as (typeof book.pupils)[number];
    const target = book.classes[1] as (typeof book.classes)[number];
    mover.classId = target.id;
    const moved = await school.sync();
    expect(changes(moved.counts)).toEqual({ memberships_changed: 1 });
    school.edu.ok(await school.confirm(moved.id));
    expect(await classOfPupil(school.schoolId, mover.name)).toEqual([{ name: target.name }]);

    // 六年级 graduates: its five classes are archived, its pupils stay and leave their classes.
    const sixth = book.grades[5] as (typeof book.grades)[number];
    sixth.graduated = true;
    const sixthClasses = book.classes.filter((c) => c.gradeId === sixth.id);
    const sixthPupils = new Set(
      book.pupils.filter((p) => sixthClasses.some((c) => c.id === p.classId)).map((p) => p.id),
    );
    const sixthSeats = sixthClasses.flatMap((c) => [c.headTeacher, ...c.teachers]).filter((t) => matched.has(t));
    const graduated = await school.sync();
    expect(changes(graduated.counts)).toEqual({
      classes_removed: 5,
      memberships_removed: 200 + sixthSeats.length,
      guardians_removed: book.guardians.filter((g) => sixthPupils.has(g.pupilId)).length,
    });
    expect(graduated.status).toBe('preview');
    school.edu.ok(await school.confirm(graduated.id));
    const archived = await db()
      .selectFrom('classes')
      .select(['name', 'archived_at'])
      .where('school_id', '=', school.schoolId)
      .where('archived_at', 'is not', null)
      .execute();
    expect(archived.map((c) => c.name).sort()).toEqual(sixthClasses.map((c) => c.name).sort());
    expect(changes((await school.sync()).counts)).toEqual({});

    // A pupil leaves the book: held for the admin, applied only with accept_removals.
    const leaver = book.pupils.splice(10, 1)[0] as (typeof book.pupils)[number];
    const held = await school.sync();
    expect(held.status).toBe('held');
    expect(held.counts.people_removed).toBe(1);
    expect(held.holds).toMatchObject([{ school_id: school.schoolId, removed: 1 }]);
    const refused = await school.confirm(held.id);
    expect(refused.status).toBe(400);
    expect(await classOfPupil(school.schoolId, leaver.name)).toHaveLength(1);
    school.edu.ok(await school.confirm(held.id, true));
    expect(await classOfPupil(school.schoolId, leaver.name)).toEqual([]);
  }, 240_000);
});

describe('vendor limits', () => {
  test.each(['wecom', 'dingtalk'] as const)(
    '%s: frequency refusals are retried and an expired token fetched again',
    async (vendor) => {
      const book = schoolBook({
        name: `限流小学 ${vendor} ${Date.now() % 100_000}`,
        grades: 1,
        classesPerGrade: 2,
        pupilsPerClass: 35,
      });
      const school = await startSchoolBook(server, call, vendor, book);
      closing.push(() => school.peer.close());
      school.edu.ok(await school.confirm((await school.sync()).id));
      const tokens = school.peer.tokensIssued;
      school.peer.expireTokens();
      school.peer.throttleEvery = 4;
      const again = await school.sync();
      expect(changes(again.counts)).toEqual({});
      expect(school.peer.throttled).toBeGreaterThan(0);
      expect(school.peer.tokensIssued).toBe(tokens + 1);
      const [listed] = school.edu
        .ok<{ id: number; last_report: { retried: number; status: string } }[]>(
          await call('GET', routes.listAddressBooks.path, undefined, { token: school.token }),
        )
        .filter((b) => b.id === school.bookId);
      expect(listed?.last_report).toMatchObject({ status: 'preview' });
      expect(listed?.last_report.retried).toBe(school.peer.throttled);
    },
    60_000,
  );

  test('a book of an unknown vendor, schedule or school, or a second of the same vendor, is refused', async () => {
    const book = schoolBook({
      name: `校验小学 ${Date.now() % 100_000}`,
      grades: 1,
      classesPerGrade: 1,
      pupilsPerClass: 2,
    });
    const school = await startSchoolBook(server, call, 'wecom', book);
    closing.push(() => school.peer.close());
    const add = (id: number, body: Record<string, unknown>) =>
      call('POST', routes.addAddressBook.path.replace(':id', String(id)), body, { token: school.token });
    const good = { vendor: 'dingtalk', app_id: 'ding-app', secret: 'ding-secret' };
    expectError(await add(school.schoolId, { ...good, vendor: 'feishu' }), 'E_1');
    expectError(await add(school.schoolId, { ...good, schedule: 'weekly' }), 'E_1');
    expectError(await add(999_999, good), 'E_2');
    expectError(await add(school.schoolId, { ...good, vendor: 'wecom' }), 'E_1');
    school.edu.ok(await add(school.schoolId, { ...good, schedule: 'daily' }));
  });

  test('a wrong secret is a failed sync with the vendor’s words, reported on the book', async () => {
    const book = schoolBook({
      name: `密钥小学 ${Date.now() % 100_000}`,
      grades: 1,
      classesPerGrade: 1,
      pupilsPerClass: 3,
    });
    const school = await startSchoolBook(server, call, 'wecom', book);
    closing.push(() => school.peer.close());
    school.edu.ok(
      await call(
        'PATCH',
        routes.editAddressBook.path.replace(':id', String(school.bookId)),
        { app_id: 'another-corp', secret: 'wrong' },
        { token: school.token },
      ),
    );
    const answer = await call<{ error_message: string }>(
      'POST',
      routes.syncAddressBook.path.replace(':id', String(school.bookId)),
      {},
      { token: school.token },
    );
    expect(answer.status).toBe(502);
    expect(answer.body.error_message).toContain('40001');
  });
});

describe('scheduled sync', () => {
  test('the hourly sweep syncs a due book, applies what changed and leaves its report', async () => {
    const book = schoolBook({
      name: `定时小学 ${Date.now() % 100_000}`,
      grades: 1,
      classesPerGrade: 2,
      pupilsPerClass: 10,
    });
    const school = await startSchoolBook(server, call, 'dingtalk', book);
    closing.push(() => school.peer.close());
    school.edu.ok(await school.confirm((await school.sync()).id));
    school.edu.ok(
      await call(
        'PATCH',
        routes.editAddressBook.path.replace(':id', String(school.bookId)),
        { schedule: 'hourly' },
        { token: school.token },
      ),
    );
    const renamed = book.pupils[2] as (typeof book.pupils)[number];
    renamed.name = '改名学生';
    moveClock(HOUR_MS + 60_000);
    expect(await sweepOnce(server.app.ctx)).toBe(true);
    const token = (await signInOperator(server)).token;
    const [listed] = school.edu
      .ok<{ id: number; next_sync_at: number; last_report: { status: string; counts: Record<string, number> } }[]>(
        await call('GET', routes.listAddressBooks.path, undefined, { token }),
      )
      .filter((b) => b.id === school.bookId);
    expect(listed?.last_report.status).toBe('applied');
    expect(changes(listed?.last_report.counts ?? {})).toEqual({ people_changed: 1 });
    expect(listed?.next_sync_at).toBeGreaterThan(server.app.ctx.now());
    expect(await classOfPupil(school.schoolId, '改名学生')).toHaveLength(1);
  });
});
