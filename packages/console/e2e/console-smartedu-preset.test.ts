/**
 * The national smart education platform's preset in the console, in Chromium: picking it says what
 * the platform does not publish (where user information is read) and makes that field required; the
 * connector is then added with the platform's published endpoints and the one asked for. A regional
 * education cloud's preset asks for all three addresses. And a school's work app (WeCom): the vendor
 * picked, the organisation's CorpID, the app's AgentId and its secret (sent once, never shown), and the
 * address whose domain the app must trust.
 */
import { adminRoutes } from '@edupass/protocol';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  operatorToken,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
const SCHOOL = '智慧平台实验小学';
const PLATFORM = 'https://platform.smartedu.example';
const WORK_APP_SECRET = 'wecom-app-secret-typed-once-0123456789';

beforeAll(async () => {
  rig = await startConsoleRig();
  await eduSteps(rig.server, client(rig.server.url)).addSchool(SCHOOL);
  page = await openConsoleAsOperator(rig, { hash: '#/connectors', heading: '学校统一身份认证' });
});
afterAll(async () => {
  await rig?.close();
});

it('asks for the user information address the platform does not publish, and adds the connector', async () => {
  await page.getByLabel('学校', { exact: true }).selectOption({ label: SCHOOL });
  await page.getByLabel('类型', { exact: true }).selectOption({ label: 'OAuth2 / OpenID Connect 平台' });
  await page.getByLabel('预设', { exact: true }).selectOption({ label: '国家智慧教育平台' });
  const asks = page.getByTestId('preset-asks');
  await expect.poll(() => asks.textContent()).toContain('用户信息地址');
  const userinfo = page.getByLabel('用户信息地址（OAuth2 必填；OIDC 可选）', { exact: true });
  expect(await userinfo.getAttribute('required')).not.toBeNull();
  await page.locator('#connector-code').fill('smartedu-school');
  await page.locator('#connector-name').fill('国家智慧教育平台');
  await page.getByLabel('客户端 ID', { exact: true }).fill('edupass-app-0001');
  await page.getByLabel('客户端密钥（加密保存，不再显示）', { exact: true }).fill('smartedu-app-key-0123456789');
  await page.getByLabel('授权地址（OAuth2 必填；OIDC 可选）', { exact: true }).fill(`${PLATFORM}/uias/oauth/authorize`);
  await page.getByLabel('令牌地址（OAuth2 必填；OIDC 可选）', { exact: true }).fill(`${PLATFORM}/uias/oauth/token`);
  await userinfo.fill(`${PLATFORM}/uias/oauth/userInfo`);
  await page.getByRole('button', { name: '添加连接' }).click();
  // What the operator is told, once the form is empty again for the next connector (the next test
  // fills it: a form emptied after it began filling would lose what it typed).
  await page.getByText('已添加 国家智慧教育平台。学生登录前请检查其映射。').waitFor();
  await expect
    .poll(async () => {
      const answer = await client(rig.server.url)<{ code: string; settings: Record<string, unknown> }[]>(
        'GET',
        adminRoutes.listSchoolConnectors.path,
        undefined,
        { token: await operatorToken(rig) },
      );
      return answer.body.find((c) => c.code === 'smartedu-school')?.settings;
    })
    .toMatchObject({ preset: 'smartedu', scopes: ['userInfo'], asked_of_platform: ['userinfo_endpoint'] });
});

it('adds the school’s WeCom: CorpID, AgentId and a secret never shown again', async () => {
  await page.getByLabel('学校', { exact: true }).selectOption({ label: SCHOOL });
  await page.getByLabel('类型', { exact: true }).selectOption({ label: '企业微信或钉钉（扫码，以及在应用内免登）' });
  await page.getByLabel('办公应用', { exact: true }).selectOption({ label: '企业微信' });
  await page.getByLabel('代码（2–40 位小写字母、数字或连字符，用于地址中）').fill('baisha-wecom');
  await page.getByLabel('学生搜索时看到的名称').fill('白沙小学企业微信');
  await page.getByLabel('学校组织的 CorpID（企业微信 ww…，钉钉 ding…）').fill('ww0123456789abcdef');
  await page.getByLabel('应用的 AgentId（仅企业微信）').fill('1000002');
  await page.getByLabel('客户端密钥（加密保存，不再显示）').fill(WORK_APP_SECRET);
  await page.getByRole('button', { name: '添加连接' }).click();
  await page.getByText('已添加 白沙小学企业微信。学生登录前请检查其映射。').waitFor();
  const redirect = `${rig.server.config.publicUrl}/edu/school-sign-in/baisha-wecom/app`;
  await page
    .getByText(`请在应用设置中把此地址的域名设为可信域名（企业微信），或登记为回调地址（钉钉）：${redirect}`, {
      exact: true,
    })
    .waitFor();
  expect(await page.content()).not.toContain(WORK_APP_SECRET);
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
