/** Shared steps of the education tests: a school, an approved teacher, a class, pupils. */
import { type ClassDetail, type PupilCredentials, routes } from '@edupass/protocol';
import { type Account, type Call, signInOperator, signUp } from '@edupass/test-kit/accounts';
import type { TestServer } from '@edupass/test-kit/harness';
import { expect } from 'vitest';

export const pathOf = (path: string, params: Record<string, number>) =>
  path.replace(/:(\w+)/g, (_, name: string) => String(params[name]));

/** Thirty Chinese names, as a teacher pastes them. */
export const CHINESE_NAMES = [
  '王小明',
  '李华',
  '张伟',
  '刘洋',
  '陈静',
  '杨帆',
  '赵磊',
  '黄丽',
  '周杰',
  '吴敏',
  '徐强',
  '孙悦',
  '马超',
  '朱琳',
  '胡斌',
  '郭晶',
  '何苗',
  '高峰',
  '林欣',
  '罗成',
  '郑爽',
  '梁宇',
  '谢娜',
  '宋佳',
  '唐嫣',
  '韩雪',
  '冯巩',
  '邓超',
  '曹颖',
  '彭于',
];

export const eduSteps = (server: TestServer, call: Call) => {
  let operator: string | undefined;
  const operatorToken = async () => {
    operator ??= (await signInOperator(server)).token;
    return operator;
  };
  const ok = <T>(answer: { status: number; body: unknown }, status = 200) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    return answer.body as T;
  };
  const addSchool = async (name = '实验小学', daily_batches?: number) =>
    ok<{ id: number }>(
      await call(
        'POST',
        routes.addSchool.path,
        { name, ...(daily_batches === undefined ? {} : { daily_batches }) },
        {
          token: await operatorToken(),
        },
      ),
    ).id;
  /** A phone account that asked to teach at the school and was approved by an operator. */
  const approvedTeacher = async (schoolId: number): Promise<Account> => {
    const teacher = await signUp(server);
    ok(await call('POST', pathOf(routes.requestTeaching.path, { id: schoolId }), {}, { token: teacher.token }), 204);
    ok(
      await call(
        'POST',
        pathOf(routes.approveTeacherByOperator.path, { id: schoolId, user_id: teacher.userId }),
        {},
        { token: await operatorToken() },
      ),
      204,
    );
    return teacher;
  };
  const createClass = async (teacher: Account, schoolId: number, name = '三年级二班') =>
    ok<{ id: number }>(
      await call(
        'POST',
        pathOf(routes.createClass.path, { id: schoolId }),
        { name, grade: 3, school_year: '2026-2027' },
        { token: teacher.token },
      ),
    ).id;
  const createPupils = async (teacher: Account, classId: number, names: string[]) =>
    ok<{ pupils: PupilCredentials[] }>(
      await call('POST', pathOf(routes.createPupils.path, { id: classId }), { names }, { token: teacher.token }),
    ).pupils;
  const classDetail = async (token: string, classId: number) =>
    call<ClassDetail>('GET', pathOf(routes.getClass.path, { id: classId }), undefined, { token });
  const cardSheet = async (teacher: Account, classId: number, lang: 'zh-CN' | 'en', user_ids?: number[]) =>
    ok<{ html: string; count: number }>(
      await call(
        'POST',
        pathOf(routes.cardSheet.path, { id: classId }),
        { lang, ...(user_ids ? { user_ids } : {}) },
        { token: teacher.token },
      ),
    );
  return { operatorToken, ok, addSchool, approvedTeacher, createClass, createPupils, classDetail, cardSheet };
};
