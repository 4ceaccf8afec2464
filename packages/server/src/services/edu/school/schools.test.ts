import { type AuditEntry, routes, type SchoolOverview } from '@edupass/protocol';
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
      await call('GET', '/admin/audit?limit=50', undefined, { token: await edu.auditorToken() }),
    );
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['school.add', 'teacher.approve', 'edu.pupils.create', 'school.quota.set']),
    );
  });
});

describe("the operator's decisions and the audit log of bulk actions", () => {
  const audit = async (query: string) =>
    edu.ok<AuditEntry[]>(
      await call('GET', `${routes.listAudit.path}?${query}`, undefined, { token: await edu.auditorToken() }),
    );

  test('an operator refuses a pending teacher: the request is gone and the refusal audited; an approved teacher stays', async () => {
    const schoolId = await edu.addSchool('青松小学');
    const asking = await signUp(server);
    const refuse = async (userId: number) =>
      call(
        'POST',
        pathOf(routes.refuseTeacherByOperator.path, { id: schoolId, user_id: userId }),
        {},
        {
          token: await edu.operatorToken(),
        },
      );
    edu.ok(await call('POST', pathOf(routes.requestTeaching.path, { id: schoolId }), {}, { token: asking.token }), 204);
    edu.ok(await refuse(asking.userId), 204);
    const requests = edu.ok<{ school_id: number; user_id: number }[]>(
      await call('GET', routes.listTeacherRequests.path, undefined, { token: await edu.operatorToken() }),
    );
    expect(requests.some((r) => r.school_id === schoolId && r.user_id === asking.userId)).toBe(false);
    expectError(await refuse(asking.userId), 'E_2');
    const teacher = await edu.approvedTeacher(schoolId);
    expectError(await refuse(teacher.userId), 'E_2');
    expect(await audit('action=teacher.refuse')).toContainEqual(
      expect.objectContaining({ target: `school:${schoolId}`, detail: `user:${asking.userId}` }),
    );
  });

  test("the edu-bulk group lists a school's pupil batches, card sheets, archives and promotions, and nothing else", async () => {
    const schoolId = await edu.addSchool('松柏小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '五年级一班');
    await edu.createPupils(teacher, classId, ['周小舟', '钱多多']);
    await edu.cardSheet(teacher, classId, 'en');
    edu.ok(
      await call(
        'POST',
        pathOf(routes.promoteClass.path, { id: classId }),
        { school_year: '2027-2028' },
        {
          token: teacher.token,
        },
      ),
    );
    edu.ok(await call('POST', pathOf(routes.archiveClass.path, { id: classId }), {}, { token: teacher.token }), 204);
    const bulk = (await audit('group=edu-bulk&limit=500')).filter((e) => e.target === `class:${classId}`);
    expect(bulk.map((e) => e.action)).toEqual([
      'edu.class.archive',
      'edu.class.promote',
      'edu.cards.print',
      'edu.pupils.create',
    ]);
    expect(bulk.every((e) => e.operator_id === teacher.userId)).toBe(true);
    expect((await audit('group=edu-bulk&limit=500')).some((e) => e.action === 'school.add')).toBe(false);
    expectError(
      await call('GET', `${routes.listAudit.path}?group=everything`, undefined, { token: await edu.auditorToken() }),
      'E_1',
    );
  });
});
