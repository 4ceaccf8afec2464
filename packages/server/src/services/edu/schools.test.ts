import { routes, type SchoolOverview } from '@edupass/protocol';
import { expectError, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

describe("a school admin's view", () => {
  test('the admin named by the operator approves teachers and sees teachers, classes and the quota', async () => {
    const admin = await signUp(server);
    const school = edu.ok<{ id: number; daily_batches: number }>(
      await call(
        'POST',
        routes.addSchool.path,
        { name: '育才中学', admin_user_id: admin.userId, daily_batches: 7 },
        { token: await edu.operatorToken() },
      ),
    );
    expect(school.daily_batches).toBe(7);
    const teacher = await signUp(server);
    edu.ok(
      await call('POST', pathOf(routes.requestTeaching.path, { id: school.id }), {}, { token: teacher.token }),
      204,
    );
    // A teacher cannot approve teachers; the school's admin can.
    expectError(
      await call(
        'POST',
        pathOf(routes.approveTeacher.path, { id: school.id, user_id: teacher.userId }),
        {},
        { token: teacher.token },
      ),
      'E_2',
    );
    edu.ok(
      await call(
        'POST',
        pathOf(routes.approveTeacher.path, { id: school.id, user_id: teacher.userId }),
        {},
        { token: admin.token },
      ),
      204,
    );
    const classId = await edu.createClass(teacher, school.id);
    await edu.createPupils(teacher, classId, ['赵一', '钱二']);
    const overview = edu.ok<SchoolOverview>(
      await call('GET', pathOf(routes.schoolOverview.path, { id: school.id }), undefined, { token: admin.token }),
    );
    expect(overview).toMatchObject({ name: '育才中学', daily_batches: 7, batches_used_today: 1 });
    expect(overview.teachers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: admin.userId, role: 'school_admin', status: 'approved' }),
        expect.objectContaining({ user_id: teacher.userId, role: 'teacher', status: 'approved' }),
      ]),
    );
    expect(overview.classes.map((c) => c.id)).toEqual([classId]);
    // The admin sees every class of the school; the quota is the operator's to change.
    edu.ok(await edu.classDetail(admin.token, classId));
    edu.ok(
      await call(
        'PATCH',
        pathOf(routes.setSchoolQuota.path, { id: school.id }),
        { daily_batches: 9 },
        { token: await edu.operatorToken() },
      ),
      204,
    );
    const audit = edu.ok<{ action: string }[]>(
      await call('GET', '/admin/audit?limit=50', undefined, { token: await edu.operatorToken() }),
    );
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['school.add', 'teacher.approve', 'edu.pupils.create', 'school.quota.set']),
    );
  });
});
