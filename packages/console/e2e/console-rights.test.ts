/**
 * A minor's record in the console, in Chromium against the real server with approvals on: the user
 * page asks the operator why, the server refuses without another operator's approval, the operator asks
 * for one from the page, a second operator approves it on "Staff access and requests", and the record
 * then opens; a recorded objection shows there among the data requests. In Chinese at desktop width;
 * axe-clean.
 */
import { join } from 'node:path';
import { routes } from '@edupass/protocol';
import { nextPhone, PASSWORD } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { createAdmin } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsole,
  operatorToken,
  SCREENSHOTS,
  signInAsOperator,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let asker: Page;
let approver: Page;
let pupil: { user_id: number; username: string };

beforeAll(async () => {
  rig = await startConsoleRig();
  rig.server.app.ctx.config.staffAccessApproval = true;
  const call = client(rig.server.url);
  const edu = eduSteps(rig.server, call);
  const schoolId = await edu.addSchool('访问小学');
  const teacher = await edu.approvedTeacher(schoolId);
  const [made] = await edu.createPupils(teacher, await edu.createClass(teacher, schoolId), ['钱小静']);
  if (!made) throw new Error('no pupil');
  pupil = made;
  const second = nextPhone();
  await createAdmin(rig.server.app.ctx, second, PASSWORD);
  const token = await operatorToken(rig);
  const recorded = await call(
    'POST',
    routes.recordDataRequest.path,
    { user_id: pupil.user_id, kind: 'objection', detail: '家长反对用于推荐' },
    { token },
  );
  expect(recorded.status).toBe(200);
  asker = await signInAsOperator(rig, `#/users/${pupil.user_id}`);
  approver = await openConsole(rig, second, PASSWORD, '#/rights');
});
afterAll(() => rig?.close());

describe("a minor's record in the console", () => {
  it('asks why, needs another operator’s approval, then opens', async () => {
    const reason = '家长来电要求核实账号';
    const form = asker.getByRole('region', { name: '未成年人的资料' });
    await form.waitFor();
    await form.getByLabel('理由').fill(reason);
    await form.getByRole('button', { name: '查看资料' }).click();
    await form.getByText('查看还需要另一位管理员批准').waitFor();
    expect(await asker.getByText(pupil.username).count()).toBe(0);
    await form.getByRole('button', { name: '申请批准' }).click();
    await form.getByText('已申请').waitFor();

    await approver.getByRole('heading', { name: '人员访问与个人信息请求', level: 1 }).waitFor();
    await approver.reload();
    const row = approver.getByRole('row').filter({ hasText: reason });
    await row.waitFor();
    await row.getByRole('button', { name: '批准' }).click();
    await approver.getByRole('row').filter({ hasText: reason }).filter({ hasText: '已批准' }).waitFor();
    const objection = approver.getByRole('row').filter({ hasText: '反对' });
    await objection.waitFor();
    expect(await objection.innerText()).toContain(`#${pupil.user_id}`);
    expect(await accessibilityViolations(approver)).toEqual([]);
    await keepScreenshot(approver, { path: join(SCREENSHOTS, 'console-rights.zh-CN.png'), fullPage: true });

    await form.getByRole('button', { name: '查看资料' }).click();
    await asker.getByRole('heading', { name: '身份信息' }).waitFor();
    await asker.getByText(pupil.username).first().waitFor();
    expect(await accessibilityViolations(asker)).toEqual([]);
  });
});
