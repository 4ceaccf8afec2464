/**
 * A pupil with an account of their own joins a class by its code: the request waits for a teacher
 * of the class, who approves it (the pupil is in the class) or refuses it (the request is gone and
 * may be made again); a new code ends the old one; a teacher of another class cannot answer.
 */
import { type ClassDetail, routes } from '@edupass/protocol';
import { expectError, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const statusOf = async (token: string, classId: number, userId: number) => {
  const detail = edu.ok<ClassDetail>(await edu.classDetail(token, classId));
  return detail.members.find((m) => m.user_id === userId)?.status ?? 'none';
};

test('join requests wait for a teacher of the class, who approves or refuses them', async () => {
  const schoolId = await edu.addSchool();
  const [teacher, stranger] = await Promise.all([edu.approvedTeacher(schoolId), edu.approvedTeacher(schoolId)]);
  const classId = await edu.createClass(teacher, schoolId);
  await edu.createClass(stranger, schoolId, '隔壁班');
  const [kept, turnedDown] = await Promise.all([signUp(server), signUp(server)]);
  const open = () =>
    call<{ join_code: string }>(
      'POST',
      pathOf(routes.openJoinCode.path, { id: classId }),
      {},
      { token: teacher.token },
    );
  const join = (token: string, join_code: string) => call('POST', routes.joinClass.path, { join_code }, { token });
  const answer = (route: 'approveJoin' | 'refuseJoin', token: string, userId: number) =>
    call('POST', pathOf(routes[route].path, { id: classId, user_id: userId }), {}, { token });

  const first = edu.ok<{ join_code: string }>(await open()).join_code;
  const code = edu.ok<{ join_code: string }>(await open()).join_code;
  expectError(await join(kept.token, first), 'E_2');
  edu.ok(await join(kept.token, code), 204);
  edu.ok(await join(turnedDown.token, code.toLowerCase()), 204);
  expect(await statusOf(teacher.token, classId, kept.userId)).toBe('pending');

  // A teacher of another class answers nothing.
  expectError(await answer('approveJoin', stranger.token, kept.userId), 'E_2');
  expectError(await answer('refuseJoin', stranger.token, turnedDown.userId), 'E_2');

  edu.ok(await answer('approveJoin', teacher.token, kept.userId), 204);
  edu.ok(await answer('refuseJoin', teacher.token, turnedDown.userId), 204);
  expect(await statusOf(teacher.token, classId, kept.userId)).toBe('active');
  expect(await statusOf(teacher.token, classId, turnedDown.userId)).toBe('none');
  // Answered requests are answered: a second refusal, or one of a class member, finds none.
  expectError(await answer('refuseJoin', teacher.token, turnedDown.userId), 'E_2');
  expectError(await answer('refuseJoin', teacher.token, kept.userId), 'E_2');
  expect(await statusOf(teacher.token, classId, kept.userId)).toBe('active');
  // The one refused may ask again.
  edu.ok(await join(turnedDown.token, code), 204);
  expect(await statusOf(teacher.token, classId, turnedDown.userId)).toBe('pending');
});
