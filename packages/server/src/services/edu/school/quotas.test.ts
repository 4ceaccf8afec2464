import { routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer({ eduTeacherDailyBatches: 5, eduSchoolDailyBatches: 1000 });
const edu = eduSteps(server, call);

const createInParallel = async (attempts: { token: string; classId: number }[]) => {
  const answers = await Promise.all(
    attempts.map(({ token, classId }, i) =>
      call('POST', pathOf(routes.createPupils.path, { id: classId }), { names: [`学生${i}`, `学生${i}乙`] }, { token }),
    ),
  );
  const created = answers.filter((a) => a.status === 200);
  for (const refused of answers.filter((a) => a.status !== 200)) expectError(refused, 'AC3_48');
  return created.length;
};

const pupilsOf = async (token: string, classId: number) => {
  const detail = edu.ok<{ members: { role: string }[] }>(await edu.classDetail(token, classId));
  return detail.members.filter((m) => m.role === 'pupil').length;
};

describe('pupil batches a day', () => {
  test("20 simultaneous bulk creations against a teacher's quota of 5 create exactly 5 batches", async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const created = await createInParallel(Array.from({ length: 20 }, () => ({ token: teacher.token, classId })));
    expect(created).toBe(5);
    expect(await pupilsOf(teacher.token, classId)).toBe(10);
  });

  test("a school's own quota holds across its teachers", async () => {
    const schoolId = await edu.addSchool('第二小学', 5);
    const teachers = await Promise.all(Array.from({ length: 4 }, () => edu.approvedTeacher(schoolId)));
    const classes = await Promise.all(teachers.map((t, i) => edu.createClass(t, schoolId, `三年级${i + 1}班`)));
    const attempts = Array.from({ length: 20 }, (_, i) => ({
      token: teachers[i % 4]?.token as string,
      classId: classes[i % 4] as number,
    }));
    expect(await createInParallel(attempts)).toBe(5);
    const counts = await Promise.all(teachers.map((t, i) => pupilsOf(t.token, classes[i] as number)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
  });
});
