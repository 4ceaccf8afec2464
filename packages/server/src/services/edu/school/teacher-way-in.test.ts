import { type EduMemberships, routes, type SchoolOverview } from '@edupass/protocol';
import { expectError, nextPhone, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

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
    expect(overview.teachers.filter((t) => t.user_id === teacher.userId)).toEqual([
      expect.objectContaining({ role: 'teacher', status: 'approved' }),
    ]);
    // Unknown phone: the spec's "not registered".
    expectError(await add(admin.token, id, nextPhone()), 'AC3_1');
    // Another school's admin may not add to this school.
    expectError(await add(elsewhere.admin.token, id, teacher.phone), 'E_2');
    // A teacher (not an admin) may not add either.
    expectError(await add(teacher.token, id, nextPhone()), 'E_2');
    // A pupil account (a school-created one that bound a phone of its own) cannot be made a teacher.
    const classId = await edu.createClass(teacher, id);
    const [pupil] = await edu.createPupils(teacher, classId, ['小明']);
    const pupilPhone = nextPhone();
    await server.app.ctx.db
      .updateTable('users')
      .set({ phone: pupilPhone })
      .where('id', '=', pupil?.user_id ?? 0)
      .execute();
    expectError(await add(admin.token, id, pupilPhone), 'E_4');
    // A bad number is the field's error.
    expectError(await add(admin.token, id, '12345'), 'E_1');
  });
});
