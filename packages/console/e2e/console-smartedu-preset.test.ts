/**
 * The national smart education platform's preset in the console, in Chromium: picking it says what
 * the platform does not publish (where user information is read) and makes that field required; the
 * connector is then added with the platform's published endpoints and the one asked for.
 */
import { adminRoutes } from '@edupass/protocol';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConsoleRig, openConsoleAsOperator, operatorToken, startConsoleRig } from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
const SCHOOL = '智慧平台实验小学';
const PLATFORM = 'https://platform.smartedu.example';

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
