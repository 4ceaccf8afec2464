/**
 * A school's work app as its sign-in, added in the console in Chromium against the real server: the
 * vendor picked (WeCom), the organisation's CorpID, the app's AgentId and its secret (sent once, never
 * shown), and the address whose domain the app must trust. And a regional education cloud's preset,
 * whose platform does not publish its endpoints: the form says which and asks for them as required.
 */
import { adminRoutes } from '@edupass/protocol';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  operatorToken,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
const SCHOOL = '白沙实验小学';
const SECRET = 'wecom-app-secret-typed-once-0123456789';

beforeAll(async () => {
  rig = await startConsoleRig();
  await eduSteps(rig.server, client(rig.server.url)).addSchool(SCHOOL);
  page = await openConsoleAsOperator(rig, { hash: '#/connectors', heading: '学校统一身份认证' });
});
afterAll(async () => {
  await rig?.close();
});

describe('a work app and a regional education cloud in the school sign-in settings', () => {
  it('adds the school’s WeCom: CorpID, AgentId and a secret never shown again', async () => {
    await page.getByLabel('学校', { exact: true }).selectOption({ label: SCHOOL });
    await page.getByLabel('类型', { exact: true }).selectOption({ label: '企业微信或钉钉（扫码，以及在应用内免登）' });
    await page.getByLabel('办公应用', { exact: true }).selectOption({ label: '企业微信' });
    await page.getByLabel('代码（2–40 位小写字母、数字或连字符，用于地址中）').fill('baisha-wecom');
    await page.getByLabel('学生搜索时看到的名称').fill('白沙小学企业微信');
    await page.getByLabel('学校组织的 CorpID（企业微信 ww…，钉钉 ding…）').fill('ww0123456789abcdef');
    await page.getByLabel('应用的 AgentId（仅企业微信）').fill('1000002');
    await page.getByLabel('客户端密钥（加密保存，不再显示）').fill(SECRET);
    await page.getByRole('button', { name: '添加连接' }).click();
    await page.getByText('已添加 白沙小学企业微信。学生登录前请检查其映射。').waitFor();
    const redirect = `${rig.server.config.publicUrl}/edu/school-sign-in/baisha-wecom/app`;
    await page
      .getByText(`请在应用设置中把此地址的域名设为可信域名（企业微信），或登记为回调地址（钉钉）：${redirect}`, {
        exact: true,
      })
      .waitFor();
    expect(await page.content()).not.toContain(SECRET);
    const token = await operatorToken(rig);
    const listed = await client(rig.server.url)('GET', adminRoutes.listSchoolConnectors.path, undefined, { token });
    const connector = (listed.body as { kind: string; settings: Record<string, unknown> }[]).find(
      (c) => c.kind === 'workapp',
    );
    expect(connector?.settings).toEqual({
      vendor: 'wecom',
      corp_id: 'ww0123456789abcdef',
      agent_id: '1000002',
      redirect_uri: redirect,
      force_sign_in: false,
      sign_out_at_school: false,
    });
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('a regional education cloud: the form names what the platform does not publish and asks for it', async () => {
    await page.getByLabel('学校', { exact: true }).selectOption({ label: SCHOOL });
    await page.getByLabel('类型', { exact: true }).selectOption({ label: 'OAuth2 / OpenID Connect 平台' });
    await page.getByLabel('预设', { exact: true }).selectOption({ label: '省市教育云平台（取值需与平台核对）' });
    const asks = page.getByTestId('preset-asks');
    await asks.waitFor();
    for (const field of ['授权地址', '令牌地址', '用户信息地址'])
      await expect.poll(() => asks.textContent()).toContain(field);
    for (const label of [/授权地址/, /令牌地址/, /用户信息地址/]) {
      expect(await page.getByLabel(label).evaluate((el) => (el as HTMLInputElement).required)).toBe(true);
    }
    // The national platform publishes all but where user information is read: only that is asked.
    await page.getByLabel('预设', { exact: true }).selectOption({ label: '国家智慧教育平台' });
    await expect.poll(() => asks.textContent()).toContain('用户信息地址');
    expect(await asks.textContent()).not.toContain('令牌地址');
    expect(await page.getByLabel(/令牌地址/).evaluate((el) => (el as HTMLInputElement).required)).toBe(false);
  });
});
