/** Shared steps of the education tests (server and console): a school, an approved teacher, a class, pupils. */
import {
  type ClassDetail,
  type NewWebhookEndpoint,
  type PupilCredentials,
  type RosterJob,
  routes,
} from '@edupass/protocol';
import { expect } from 'vitest';
import {
  type Account,
  auditorToken,
  type Call,
  PASSWORD,
  PID,
  signInOperator,
  signUp,
  TOKEN_SET_HEADERS,
} from './accounts.ts';
import type { TestServer } from './harness.ts';

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

/** Forty names, a whole class: the thirty above and ten more (compound surnames among them). */
export const FORTY_NAMES = [
  ...CHINESE_NAMES,
  '欧阳明月',
  '司马小龙',
  '诸葛晓晓',
  '上官婉儿',
  '王一',
  '李二',
  '张三丰',
  '赵四',
  '孙五',
  '周六',
];

/** The year and month of birth of someone `years` old today (born a year before their last birthday month). */
export const bornYearsAgo = (years: number, now = Date.now()) => {
  const today = new Date(now);
  return `${today.getUTCFullYear() - years - 1}-${String(today.getUTCMonth() + 1).padStart(2, '0')}`;
};

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
  /**
   * A school an operator added, with its agreement for the pupils its teachers create recorded (so
   * they start under the school's consent), unless `agreement` is false; `adminUserId` its school admin.
   */
  const addSchool = async (name = '实验小学', daily_batches?: number, agreement = true, adminUserId?: number) => {
    const token = await operatorToken();
    const { id } = ok<{ id: number }>(
      await call(
        'POST',
        routes.addSchool.path,
        {
          name,
          ...(daily_batches === undefined ? {} : { daily_batches }),
          ...(adminUserId === undefined ? {} : { admin_user_id: adminUserId }),
        },
        { token },
      ),
    );
    if (agreement) {
      ok(
        await call(
          'POST',
          pathOf(routes.recordSchoolAgreement.path, { id }),
          { signatory: '校长 王老师', signed_on: '2024-09-01' },
          { token },
        ),
      );
    }
    return id;
  };
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
  const createClass = async (teacher: Account, schoolId: number, name = '三年级二班', schoolYear = '2026-2027') =>
    ok<{ id: number }>(
      await call(
        'POST',
        pathOf(routes.createClass.path, { id: schoolId }),
        { name, grade: 3, school_year: schoolYear },
        { token: teacher.token },
      ),
    ).id;
  /**
   * A roster file (the template as CSV text, or a OneRoster zip) previewed and confirmed by the
   * operator, for the school `schoolId` when given: the preview and the applied job.
   */
  const importRoster = async (file: string | Uint8Array, schoolId?: number) => {
    const token = await operatorToken();
    const file_base64 = Buffer.from(file).toString('base64');
    const preview = ok<RosterJob>(
      await call(
        'POST',
        routes.previewRosterImport.path,
        { file_base64, ...(schoolId ? { school_id: schoolId } : {}) },
        { token },
      ),
    );
    const applied = ok<RosterJob>(
      await call('POST', pathOf(routes.confirmRosterImport.path, { id: preview.id }), {}, { token }),
    );
    return { preview, applied };
  };
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
  /** A webhook endpoint of the test product at `url` for `events`, registered by the operator. */
  const webhookEndpoint = async (url: string, events: string[]) =>
    ok<NewWebhookEndpoint>(
      await call('POST', '/admin/webhooks', { product: PID, url, events }, { token: await operatorToken() }),
    );
  /** The id of the school sign-in connector with `code`, as the operator's list gives it. */
  const connectorId = async (code: string) => {
    const listed = ok<{ id: number; code: string }[]>(
      await call('GET', routes.listSchoolConnectors.path, undefined, { token: await operatorToken() }),
    );
    return listed.find((c) => c.code === code)?.id ?? 0;
  };
  /** Where the session of the `authorization` cookie `auth` goes to sign out at its school's system. */
  const schoolSignOutAddress = async (auth: string | undefined) =>
    ok<{ url: string }>(await call('POST', routes.schoolSignOut.path, undefined, { headers: { cookie: auth ?? '' } }))
      .url;
  /** What the newest school sign-in keeps for signing out at the school (sealed), or null. */
  const lastSignOutKept = async () =>
    (
      await server.app.ctx.db
        .selectFrom('school_sign_ins')
        .select('upstream_sign_out')
        .orderBy('created_at', 'desc')
        .executeTakeFirst()
    )?.upstream_sign_out;
  /**
   * A pupil's first sign-in: with the card's username and password, then choosing a password of their
   * own, which the school asks for before anything else (E_17 until then). The session stays signed in.
   */
  const pupilSession = async (pupil: { username: string; password: string }, own = `${pupil.password}Own7`) => {
    const token = ok<{ auth: { token: { access: { token: string } } } }>(
      await call(
        'POST',
        routes.loginByPassword.path,
        { identity: pupil.username, password: pupil.password, pid: PID },
        { headers: TOKEN_SET_HEADERS },
      ),
    ).auth.token.access.token;
    ok(
      await call(
        'PATCH',
        routes.changePasswordKeepingSession.path,
        { old_password: pupil.password, password: own, confirm_password: own, end_other_sessions: false },
        { token },
      ),
      204,
    );
    return { token, password: own };
  };
  /** A self sign-up by someone `years` old (the age question answered). */
  const signUpAged = (years: number) =>
    signUp(server, undefined, PASSWORD, [-1], { birth_year_month: bornYearsAgo(years, server.app.ctx.now()) });
  return {
    operatorToken,
    /** An auditor's token: the audit log is theirs to read (protocol's operator-duties.ts). */
    auditorToken: () => auditorToken(server),
    ok,
    signUpAged,
    pupilSession,
    addSchool,
    approvedTeacher,
    createClass,
    importRoster,
    createPupils,
    classDetail,
    cardSheet,
    webhookEndpoint,
    connectorId,
    schoolSignOutAddress,
    lastSignOutKept,
  };
};
