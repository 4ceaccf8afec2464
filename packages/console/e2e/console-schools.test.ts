/**
 * The education layer in the console, in Chromium against the real server: an operator adds a school
 * and sets its quota, a teacher asks to teach there (the teacher API), the operator approves them after
 * a confirmation naming the person, the teacher then creates pupils (API), and that bulk creation is
 * found in the audit log under "every bulk action of schools". A second request is refused. In Chinese
 * at desktop width, and in English on a phone; axe-clean; touch targets of at least 44 px.
 */
import { join } from 'node:path';
import { adminRoutes, routes } from '@edupass/protocol';
import { type Account, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsAuditor,
  openConsoleAsOperator,
  operatorToken,
  SCREENSHOTS,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
let homework: string;

beforeAll(async () => {
  rig = await startConsoleRig();
  homework = (
    await registerApp(rig.server, {
      name: 'Homework Helper',
      first_party: false,
      redirect_uris: ['https://homework.example.com/callback'],
    })
  ).application.client_id;
  page = await openConsoleAsOperator(rig, { hash: '#/schools', heading: '学校' });
});
afterAll(() => rig?.close());

const SCHOOL = '星光实验小学';

const call = () => client(rig.server.url);
const edu = () => eduSteps(rig.server, call());

/** A call as the rig's operator, through the admin API (what the server holds now). */
const asOperator = async <T>(path: string) => {
  const token = await operatorToken(rig);
  const answer = await call()<T>('GET', path, undefined, { token });
  expect(answer.status).toBe(200);
  return answer.body;
};

const go = async (hash: string, heading: string) => {
  await page.evaluate((to) => {
    window.location.hash = to;
  }, hash);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
};

/**
 * A signed-up account asks to teach at the school (the teacher API); answers it and the person as the
 * console names them (name and phone, from the operator's list).
 */
const askToTeach = async (schoolId: number): Promise<{ teacher: Account; person: string }> => {
  const teacher = await signUp(rig.server);
  const answer = await call()(
    'POST',
    pathOf(routes.requestTeaching.path, { id: schoolId }),
    {},
    { token: teacher.token },
  );
  expect(answer.status).toBe(204);
  const requests = await asOperator<{ user_id: number; name: string; status: string }[]>(
    adminRoutes.listTeacherRequests.path,
  );
  const request = requests.find((r) => r.user_id === teacher.userId);
  expect(request?.status).toBe('pending');
  return { teacher, person: `${request?.name || `#${teacher.userId}`} (${teacher.phone})` };
};

/** Heights of the visible buttons and fields in the screen's main area that are under 44 px. */
const smallTargets = (p: Page) =>
  p.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main button, main input:not([type="checkbox"]), main select')]
      .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < 44)
      .map((el) => `${el.tagName} ${el.textContent ?? ''} ${el.getBoundingClientRect().height}`),
  );

describe('schools, teacher approvals and the audit log of bulk actions', () => {
  let schoolId = 0;

  it('adds a school with its quota, then changes the quota', async () => {
    await page.getByText('还没有学校。').waitFor();
    // The form says what happens to a school's pupils until its agreement is recorded.
    await page.getByText(/登记学校协议（见下方“学校协议”）之前.*不满 14 岁学生账号都要等家长同意/).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('学校名称').fill(SCHOOL);
    await page.getByLabel('每天可创建的学生批数（可选；不填则用默认配置）').fill('3');
    await page.getByRole('button', { name: '添加学校' }).click();
    await page.getByText(`已添加 ${SCHOOL}。请在下方登记它的学校协议`).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('rowheader', { name: SCHOOL }).waitFor();
    const [school] = await asOperator<{ id: number; name: string; daily_batches: number }[]>(
      adminRoutes.listSchools.path,
    );
    expect(school).toMatchObject({ name: SCHOOL, daily_batches: 3 });
    schoolId = school?.id ?? 0;

    await page.getByLabel(`${SCHOOL} 每天可创建的学生批数`).fill('4');
    await page.getByRole('button', { name: `保存 ${SCHOOL} 的配额` }).click();
    await page.getByText(`${SCHOOL}：每天 4 批。`).waitFor();
    expect(await asOperator<{ daily_batches: number }[]>(adminRoutes.listSchools.path)).toEqual([
      expect.objectContaining({ id: schoolId, daily_batches: 4 }),
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-schools.zh-CN.png'), fullPage: true });
  });

  it('approves a teacher after a confirmation naming them; the teacher then creates pupils; the batch is in the audit log', async () => {
    const { teacher, person } = await askToTeach(schoolId);
    // Before approval the teacher cannot open a class.
    const early = await call()(
      'POST',
      pathOf(routes.createClass.path, { id: schoolId }),
      { name: '三年级二班', grade: 3, school_year: '2026-2027' },
      { token: teacher.token },
    );
    expect(early.status).not.toBe(200);

    await go('#/teachers', '教师审核');
    // Another school's request is listed too, until the list is narrowed to this school.
    const otherSchool = await edu().addSchool('明德中学');
    const other = await askToTeach(otherSchool);
    await page.reload();
    await page.getByRole('button', { name: `通过 ${other.person}` }).waitFor();
    await page.getByLabel('学校', { exact: true }).selectOption({ label: SCHOOL });
    await expect.poll(() => page.getByRole('button', { name: `通过 ${other.person}` }).count()).toBe(0);
    await page.getByRole('button', { name: `通过 ${person}` }).click();
    const question = page.getByRole('group', { name: `确定通过 ${person} 成为 ${SCHOOL} 的教师吗？` });
    await question.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-teacher-confirm.zh-CN.png'), fullPage: true });
    await question.getByRole('button', { name: '确定' }).click();
    await page.getByText(`${person} 已成为 ${SCHOOL} 的教师。`).waitFor();
    await page.getByRole('table').getByRole('cell', { name: '已通过' }).waitFor();

    const classId = await edu().createClass(teacher, schoolId, '三年级二班');
    const pupils = await edu().createPupils(teacher, classId, ['林小雨', '王小明', '李华']);
    expect(pupils).toHaveLength(3);

    // The audit log is the auditor's (an operator's system and security duties do not read it).
    const audit = await openConsoleAsAuditor(rig);
    await audit.getByLabel('操作', { exact: true }).selectOption({ label: '学校的全部批量操作' });
    await audit.getByRole('button', { name: '显示' }).click();
    const row = audit.getByRole('row').filter({ hasText: `class:${classId}` });
    await row.getByText('批量创建学生账号').waitFor();
    await row.getByText('3 pupils').waitFor();
    await row.getByText(`#${teacher.userId}`, { exact: false }).first().waitFor();
    // Only bulk actions: the operator's own changes (the school, its quota, the approval) are not listed.
    await audit.getByText('已到日志末尾（共 1 条）。').waitFor();
    expect(await audit.getByRole('cell', { name: '添加学校' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(audit, { path: join(SCREENSHOTS, 'console-audit-bulk.zh-CN.png'), fullPage: true });
    await audit.context().close();
    // The operator's page leaves the teachers' list, as the next story comes back to it.
    await go('#/users', '用户');
  });

  it('refuses a request on a phone, in English, after a confirmation naming the person and the school', async () => {
    const { teacher: asking, person } = await askToTeach(schoolId);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('语言').selectOption('en');
    await go('#/teachers', 'Teacher approvals');
    await page.getByRole('button', { name: `Refuse ${person}` }).click();
    const question = page.getByRole('group', { name: `Refuse ${person}'s request to teach at ${SCHOOL}?` });
    await question.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    const spill = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(spill).toBeLessThanOrEqual(0);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-teacher-refuse.en.390.png'), fullPage: true });
    await question.getByRole('button', { name: 'Yes, decide' }).click();
    await page.getByText(`Refused ${person}'s request to teach at ${SCHOOL}.`).waitFor();
    const requests = await asOperator<{ user_id: number }[]>(adminRoutes.listTeacherRequests.path);
    expect(requests.some((r) => r.user_id === asking.userId)).toBe(false);

    await go('#/schools', 'Schools');
    await page.getByRole('rowheader').filter({ hasText: SCHOOL }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-schools.en.390.png'), fullPage: true });
  });

  it("edits the consent text as its next version and records the school's agreement, in English on a phone", async () => {
    const before = await asOperator<{ version: number }>(adminRoutes.getConsentText.path);
    await page.getByRole('heading', { name: 'Consent text' }).waitFor();
    await page.getByText(`Version in use: ${before.version}`).waitFor();
    const purpose = 'To run the maths club account of your child.';
    await page.locator('#consent-en-purpose').fill(purpose);
    await page.locator('#consent-zh-CN-purpose').fill('为孩子开设数学社团账号。');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByText(`Saved as version ${before.version + 1}.`).waitFor();
    const saved = await asOperator<{ version: number; en: { purpose: string } }>(adminRoutes.getConsentText.path);
    expect(saved).toMatchObject({ version: before.version + 1, en: { purpose } });

    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: SCHOOL }) });
    await row.getByText('No agreement: new pupils wait for a guardian.').waitFor();
    await page.getByLabel('School', { exact: true }).selectOption({ label: SCHOOL });
    await page.getByLabel('Who signed for the school (name and role)').fill('Wang Li, head teacher');
    await page.getByLabel('Day signed').fill('2025-08-30');
    // The third-party applications it covers: only those registered as third parties are offered.
    await page.getByRole('group', { name: 'Third-party applications it covers' }).waitFor();
    await page.getByRole('checkbox', { name: 'Homework Helper' }).check();
    await page.getByRole('button', { name: 'Record the agreement' }).click();
    await page.getByText(`Recorded the agreement of ${SCHOOL}.`).waitFor();
    await row
      .getByText(
        `In force: Wang Li, head teacher, 2025-08-30 (text version ${before.version + 1}); third-party applications covered: 1`,
      )
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-consent.en.390.png'), fullPage: true });
    const [agreement] = await asOperator<{ signatory: string; recorded_by: number; applications: string[] }[]>(
      pathOf(adminRoutes.listSchoolAgreements.path, { id: schoolId }),
    );
    expect(agreement).toMatchObject({
      signatory: 'Wang Li, head teacher',
      recorded_by: expect.any(Number),
      applications: [homework],
    });
  });
});
