import { type EduMemberships, routes, type SchoolOverview } from '@edupass/protocol';
import { expectError, nextPhone, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { schoolsNamedQuery } from '../../../store/edu/school/school-names.ts';
import { UNKNOWN_TEACHER_PHONES_PER_DAY } from './schools.ts';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

type Found = { schools: Record<string, unknown>[] };

const search = (token: string, q: string) =>
  call<Found>('GET', `${routes.searchSchools.path}?q=${encodeURIComponent(q)}`, undefined, { token });

/** A school with its first admin (an account of its own), as the operator adds it. */
const schoolWithAdmin = async (name: string) => {
  const admin = await signUp(server);
  const school = edu.ok<{ id: number }>(
    await call(
      'POST',
      routes.addSchool.path,
      { name, admin_user_id: admin.userId },
      { token: await edu.operatorToken() },
    ),
  );
  return { id: school.id, admin };
};

const schoolsOf = async (token: string) =>
  edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token })).schools;

describe('finding a school', () => {
  test('a part of the name finds it; the answer is the id and name only, and capped', async () => {
    const tag = `${Date.now() % 100000}`;
    const { id, admin } = await schoolWithAdmin(`北京市第${tag}实验小学`);
    const teacher = await edu.approvedTeacher(id);
    const stranger = await signUp(server);
    const found = edu.ok<Found>(await search(stranger.token, `${tag}实验`));
    expect(found.schools).toEqual([{ id, name: `北京市第${tag}实验小学` }]);
    // Nothing of who teaches there or of pupils: each school is its id and name, no phone anywhere.
    expect(found.schools.map((s) => Object.keys(s).sort())).toEqual([['id', 'name']]);
    const text = JSON.stringify(found);
    for (const phone of [admin.phone, teacher.phone]) expect(text).not.toContain(phone);
    // Case and spaces of Latin names do not matter; a wildcard is a plain character.
    const latin = await schoolWithAdmin(`Riverside ${tag} Academy`);
    expect(edu.ok<Found>(await search(stranger.token, `side ${tag} ACAD`)).schools).toEqual([
      { id: latin.id, name: `Riverside ${tag} Academy` },
    ]);
    expect(edu.ok<Found>(await search(stranger.token, `${tag}%`)).schools).toEqual([]);
    // Many matches: capped.
    for (let i = 0; i < 23; i++) await edu.addSchool(`第${tag}中学分校${i}`, undefined, false);
    expect(edu.ok<Found>(await search(stranger.token, `${tag}中学`)).schools).toHaveLength(20);
  });

  test('a search needs a signed-in caller and two characters', async () => {
    expectError(await call('GET', `${routes.searchSchools.path}?q=${encodeURIComponent('实验')}`), 'E_0');
    const someone = await signUp(server);
    expectError(await search(someone.token, '实'), 'E_1');
  });
});

describe.runIf(process.env.EDUPASS_TEST_DB === 'postgres')('the search on PostgreSQL', () => {
  test('reads the pieces index and the schools by id, never a scan of every school', async () => {
    const { db } = server.app.ctx;
    // 20,000 schools (北京市第N中学 …), their pieces written as a search needs them.
    await sql`insert into schools (name, name_key, created_at)
      select n, n, 0 from (select (array['北京市','上海市','成都市','杭州市'])[1 + i % 4] || '第' || i ||
        (array['中学','小学','实验学校','外国语学校'])[1 + i % 4] as n from generate_series(1, 20000) i) named`.execute(
      db,
    );
    await sql`insert into school_name_grams (gram, school_id)
      select distinct substr(name_key, k, 2), id from schools, generate_series(1, 20) k
      where k < char_length(name_key) and created_at = 0`.execute(db);
    await sql`analyze schools`.execute(db);
    await sql`analyze school_name_grams`.execute(db);
    for (const key of ['实验学校', '第1234', '上海市第2']) {
      const query = schoolsNamedQuery(db, key, 20).compile();
      const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text, text).not.toMatch(/Seq Scan on (schools|school_name_grams)/);
      expect(text, text).toMatch(/school_name_grams_pk/);
      expect(text, text).toMatch(/Index Scan using schools_pkey/);
    }
  });
});

describe('asking to teach', () => {
  test('the request is pending, the admin approves, the teacher sees approved; a refusal shows and asking again works', async () => {
    const { id, admin } = await schoolWithAdmin('育英学校');
    const teacher = await signUp(server);
    edu.ok(await call('POST', pathOf(routes.requestTeaching.path, { id }), {}, { token: teacher.token }), 204);
    expect(await schoolsOf(teacher.token)).toEqual([{ id, name: '育英学校', role: 'teacher', status: 'pending' }]);
    edu.ok(
      await call(
        'POST',
        pathOf(routes.approveTeacher.path, { id, user_id: teacher.userId }),
        {},
        { token: admin.token },
      ),
      204,
    );
    expect(await schoolsOf(teacher.token)).toEqual([{ id, name: '育英学校', role: 'teacher', status: 'approved' }]);
    // Asking again once approved changes nothing.
    edu.ok(await call('POST', pathOf(routes.requestTeaching.path, { id }), {}, { token: teacher.token }), 204);
    expect((await schoolsOf(teacher.token))[0]?.status).toBe('approved');
    await edu.createClass(teacher, id);

    const other = await signUp(server);
    edu.ok(await call('POST', pathOf(routes.requestTeaching.path, { id }), {}, { token: other.token }), 204);
    edu.ok(
      await call('POST', pathOf(routes.refuseTeacher.path, { id, user_id: other.userId }), {}, { token: admin.token }),
      204,
    );
    expect(await schoolsOf(other.token)).toEqual([{ id, name: '育英学校', role: 'teacher', status: 'refused' }]);
    // A refused teacher is not a teacher.
    expectError(
      await call(
        'POST',
        pathOf(routes.createClass.path, { id }),
        { name: '一班', grade: 1, school_year: '2026-2027' },
        { token: other.token },
      ),
      'E_2',
    );
    // An approved teacher cannot be "refused" away by this call.
    expectError(
      await call(
        'POST',
        pathOf(routes.refuseTeacher.path, { id, user_id: teacher.userId }),
        {},
        { token: admin.token },
      ),
      'E_2',
    );
    edu.ok(await call('POST', pathOf(routes.requestTeaching.path, { id }), {}, { token: other.token }), 204);
    expect((await schoolsOf(other.token))[0]?.status).toBe('pending');
  });
});

describe('a school admin adds a teacher by phone', () => {
  test('the name a teacher gives when asking is the name they are greeted by; none given, none answered', async () => {
    const { id } = await schoolWithAdmin('启智学校');
    const named = await signUp(server);
    const unnamed = await signUp(server);
    const path = pathOf(routes.requestTeaching.path, { id });
    edu.ok(await call('POST', path, { name: '  王老师 ' }, { token: named.token }), 204);
    edu.ok(await call('POST', path, {}, { token: unnamed.token }), 204);
    const me = async (token: string) =>
      edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token }));
    expect((await me(named.token)).teacher_name).toBe('王老师');
    expect(await me(unnamed.token)).not.toHaveProperty('teacher_name');
  });

  test('an account with that phone becomes an approved teacher of this school only; twice is the same', async () => {
    const { id, admin } = await schoolWithAdmin('春晖小学');
    const elsewhere = await schoolWithAdmin('秋实小学');
    const teacher = await signUp(server);
    const add = (token: string, schoolId: number, phone: string) =>
      call('POST', pathOf(routes.addSchoolTeacher.path, { id: schoolId }), { phone_number: phone }, { token });
    edu.ok(await add(admin.token, id, teacher.phone), 204);
    edu.ok(await add(admin.token, id, teacher.phone), 204);
    expect(await schoolsOf(teacher.token)).toEqual([{ id, name: '春晖小学', role: 'teacher', status: 'approved' }]);
    await edu.createClass(teacher, id);
    const overview = edu.ok<SchoolOverview>(
      await call('GET', pathOf(routes.schoolOverview.path, { id }), undefined, { token: admin.token }),
    );
    // The admin sees whom they approved by the masked number, never the whole of it.
    expect(overview.teachers.filter((t) => t.user_id === teacher.userId)).toEqual([
      expect.objectContaining({
        role: 'teacher',
        status: 'approved',
        phone: `${teacher.phone.slice(0, 3)}****${teacher.phone.slice(-4)}`,
      }),
    ]);
    expect(JSON.stringify(overview)).not.toContain(teacher.phone);
    // Unknown phone: the spec's "not registered".
    expectError(await add(admin.token, id, nextPhone()), 'AC3_1');
    // Another school's admin may not add to this school.
    expectError(await add(elsewhere.admin.token, id, teacher.phone), 'E_2');
    // A teacher (not an admin) may not add either.
    expectError(await add(teacher.token, id, nextPhone()), 'E_2');
    // A pupil account (a school-created one that bound a phone of its own) cannot be made a teacher.
    const classId = await edu.createClass(teacher, id, '三年级三班');
    const [pupil] = await edu.createPupils(teacher, classId, ['小明']);
    const pupilPhone = nextPhone();
    await server.app.ctx.db
      .updateTable('users')
      .set({ phone: pupilPhone })
      .where('id', '=', pupil?.user_id ?? 0)
      .execute();
    expectError(await add(admin.token, id, pupilPhone), 'E_4');
    // Nor a child's own account (the age question said 12), added or asking.
    const child = await edu.signUpAged(12);
    expectError(await add(admin.token, id, child.phone), 'E_4');
    expectError(await call('POST', pathOf(routes.requestTeaching.path, { id }), {}, { token: child.token }), 'E_4');
    expect(await schoolsOf(child.token)).toEqual([]);
    const childMemberships = await call<EduMemberships>('GET', routes.eduMemberships.path, undefined, {
      token: child.token,
    });
    expect(childMemberships.body.may_teach).toBe(false);
    expect(
      (await call<EduMemberships>('GET', routes.eduMemberships.path, undefined, { token: admin.token })).body.may_teach,
    ).toBe(true);
    // A bad number is the field's error.
    expectError(await add(admin.token, id, '12345'), 'E_1');
    // Numbers without an account: at most the day's limit are looked up, even all at once; then every
    // add waits (a known number too), so the form tells nobody who has an account.
    const unknown = await Promise.all(
      Array.from({ length: UNKNOWN_TEACHER_PHONES_PER_DAY + 5 }, () => add(admin.token, id, nextPhone())),
    );
    const codes = unknown.map((a) => (a.body as { error_code?: string }).error_code);
    expect(codes.filter((c) => c === 'AC3_1')).toHaveLength(UNKNOWN_TEACHER_PHONES_PER_DAY - 1);
    expect(codes.filter((c) => c === 'AC3_23')).toHaveLength(6);
    const waits = await add(admin.token, id, teacher.phone);
    expectError(waits, 'AC3_23');
    expect((waits.body as { retry_after?: number }).retry_after).toBeGreaterThan(0);
  });
});
