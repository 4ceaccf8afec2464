import { type EduMemberships, routes } from '@edupass/protocol';
import { type Account, expectError, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const openJoinCode = async (teacher: Account, classId: number) =>
  edu.ok<{ join_code: string }>(
    await call('POST', pathOf(routes.openJoinCode.path, { id: classId }), {}, { token: teacher.token }),
  ).join_code;
const join = (pupil: Account, code: string) =>
  call('POST', routes.joinClass.path, { join_code: code }, { token: pupil.token });
const classOf = async (pupil: Account, classId: number) =>
  edu
    .ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token: pupil.token }))
    .classes.find((c) => c.id === classId);

describe('a pupil with a personal account joins a class by its join code', () => {
  test('the request waits for a teacher; once approved the pupil is a member', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const pupil = await signUp(server);
    const code = await openJoinCode(teacher, classId);
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);

    // As a pupil types it from the board: lower case, spaces around.
    edu.ok(await join(pupil, ` ${code.toLowerCase()} `), 204);
    expect(await classOf(pupil, classId)).toMatchObject({ role: 'pupil', status: 'pending' });
    const pending = edu.ok<{ members: { user_id: number; status: string }[] }>(
      await edu.classDetail(teacher.token, classId),
    );
    expect(pending.members).toContainEqual(expect.objectContaining({ user_id: pupil.userId, status: 'pending' }));

    // Another school's teacher cannot approve it; the class's own teacher can.
    const otherSchool = await edu.addSchool('第二小学');
    const stranger = await edu.approvedTeacher(otherSchool);
    const approve = (by: Account) =>
      call('POST', pathOf(routes.approveJoin.path, { id: classId, user_id: pupil.userId }), {}, { token: by.token });
    expectError(await approve(stranger), 'E_2');
    expect(await classOf(pupil, classId)).toMatchObject({ status: 'pending' });
    edu.ok(await approve(teacher), 204);
    expect(await classOf(pupil, classId)).toMatchObject({ role: 'pupil', status: 'active' });
    // Approving twice finds no request.
    expectError(await approve(teacher), 'E_2');
  });

  test('a wrong, lapsed or archived class code is E_2, as if there were none', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const pupil = await signUp(server);

    expectError(await join(pupil, 'ABCDEFGH'), 'E_2');

    const lapsing = await edu.createClass(teacher, schoolId, '一班');
    const lapsed = await openJoinCode(teacher, lapsing);
    await server.app.ctx.db
      .updateTable('classes')
      .set({ join_code_expires_at: Date.now() - 1 })
      .where('id', '=', lapsing)
      .execute();
    expectError(await join(pupil, lapsed), 'E_2');

    const archiving = await edu.createClass(teacher, schoolId, '二班');
    const archived = await openJoinCode(teacher, archiving);
    edu.ok(await call('POST', pathOf(routes.archiveClass.path, { id: archiving }), {}, { token: teacher.token }), 204);
    expectError(await join(pupil, archived), 'E_2');
    // Nor can a new code be opened for it.
    expectError(
      await call('POST', pathOf(routes.openJoinCode.path, { id: archiving }), {}, { token: teacher.token }),
      'E_1',
    );
    expect((await classOf(pupil, lapsing)) ?? (await classOf(pupil, archiving))).toBeUndefined();
  });

  test('a flood of join attempts is refused with E_5 past the limit, even with the right code after it', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const code = await openJoinCode(teacher, classId);
    const prober = await signUp(server);
    const limit = server.config.loginLockAfter;

    const burst = await Promise.all(Array.from({ length: limit + 5 }, (_, i) => join(prober, `WRONG${i}`)));
    const codes = burst.map((answer) => (answer.body as { error_code?: string }).error_code);
    expect(codes.filter((c) => c === 'E_2')).toHaveLength(limit);
    expect(codes.filter((c) => c === 'E_5')).toHaveLength(5);
    for (const answer of burst.filter((a) => (a.body as { error_code?: string }).error_code === 'E_5')) {
      expectError(answer, 'E_5');
      expect((answer.body as { retry_after: number }).retry_after).toBeGreaterThan(0);
    }
    expectError(await join(prober, code), 'E_5');
    expect(await classOf(prober, classId)).toBeUndefined();

    // The lock is the prober's own: another pupil joins with the same code.
    const pupil = await signUp(server);
    edu.ok(await join(pupil, code), 204);
  });
});
