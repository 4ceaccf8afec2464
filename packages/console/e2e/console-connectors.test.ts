/**
 * Schools' sign-in connectors in the console, in Chromium against the real server: an operator adds
 * a CAS connector and an OpenID Connect platform (preset, client secret sent once and never shown),
 * edits a mapping and a platform’s settings (its issuer’s discovery document read when saved), and switches a connector off and on after a confirmation naming it. In Chinese at
 * desktop width, and in English on a phone; axe-clean; touch targets of at least 44 px.
 */
import { join } from 'node:path';
import { adminRoutes } from '@edupass/protocol';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { type DiscoveryDocuments, startDiscoveryDocuments } from '@edupass/test-kit/oidc-discovery';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  operatorToken,
  SCREENSHOTS,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
/** The platform's discovery documents, read when a connector is saved. */
let platform: DiscoveryDocuments;
let issuer: string;
let otherIssuer: string;
const SCHOOL = '青山实验中学';
const SECRET = 'client-secret-typed-once-0123456789';

beforeAll(async () => {
  [rig, platform] = await Promise.all([startConsoleRig(), startDiscoveryDocuments()]);
  issuer = `${platform.url}/edu-cloud`;
  otherIssuer = `${platform.url}/edu-cloud-2`;
  await eduSteps(rig.server, client(rig.server.url)).addSchool(SCHOOL);
  page = await openConsoleAsOperator(rig, { hash: '#/connectors', heading: '学校统一身份认证' });
});
afterAll(async () => {
  await platform?.close();
  await rig?.close();
});

interface Connector {
  id: number;
  code: string;
  kind: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  mapping: Record<string, unknown>;
}

const connectors = async () => {
  const token = await operatorToken(rig);
  const answer = await client(rig.server.url)<Connector[]>('GET', adminRoutes.listSchoolConnectors.path, undefined, {
    token,
  });
  expect(answer.status).toBe(200);
  return answer.body;
};

const smallTargets = (p: Page) =>
  p.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main button, main input, main select')]
      .filter((el) => el.offsetParent !== null)
      // A checkbox is tapped anywhere on its label.
      .map((el) => ({ el, box: ((el as HTMLInputElement).type === 'checkbox' && el.closest('label')) || el }))
      .filter(({ box }) => box.getBoundingClientRect().height < 44)
      .map(({ el, box }) => `${el.tagName} ${el.id} ${box.getBoundingClientRect().height}`),
  );

describe('school sign-in connectors', () => {
  it('adds a CAS connector and an OpenID Connect platform; the secret is never shown', async () => {
    await page.getByText('还没有学校配置统一身份认证连接。').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('学校', { exact: true }).selectOption({ label: SCHOOL });
    await page.getByLabel('类型', { exact: true }).selectOption({ label: 'CAS' });
    await page.getByLabel('代码（2–40 位小写字母、数字或连字符，用于地址中）').fill('qingshan-cas');
    await page.getByLabel('学生搜索时看到的名称').fill('青山中学统一身份认证');
    await page.getByLabel('CAS 服务器地址前缀（https）').fill('https://cas.qingshan.example.edu/cas');
    // The school's computer rooms are shared: the password at every sign-in.
    await page.getByLabel('每次登录都要输入学校账号的密码（适合共用电脑）').check();
    await page.getByRole('button', { name: '添加连接' }).click();
    await page.getByText('已添加 青山中学统一身份认证。学生登录前请检查其映射。').waitFor();

    await page.getByLabel('学校', { exact: true }).selectOption({ label: SCHOOL });
    await page.getByLabel('类型', { exact: true }).selectOption({ label: 'OAuth2 / OpenID Connect 平台' });
    await page.getByLabel('预设', { exact: true }).selectOption({ label: '通用 OpenID Connect（自动发现）' });
    await page.getByLabel('代码（2–40 位小写字母、数字或连字符，用于地址中）').fill('qingshan-cloud');
    await page.getByLabel('学生搜索时看到的名称').fill('区教育云平台');
    await page.getByLabel('Issuer 地址（OpenID Connect）').fill(issuer);
    await page.getByLabel('客户端 ID').fill('edupass');
    await page.getByLabel('客户端密钥（加密保存，不再显示）').fill(SECRET);
    await page.getByRole('button', { name: '添加连接' }).click();
    await page.getByText('已添加 区教育云平台。学生登录前请检查其映射。').waitFor();
    await page.getByRole('rowheader', { name: /区教育云平台/ }).waitFor();
    // The two addresses to register with the platform: where it sends the browser back, where it posts logouts.
    const platformPaths = `${rig.server.config.publicUrl}/edu/school-sign-in/qingshan-cloud`;
    await page.getByText(`请在平台登记此回调地址：${platformPaths}/oidc`, { exact: true }).waitFor();
    await page
      .getByText(`并登记此后端注销地址，在平台退出时这里也随之退出：${platformPaths}/oidc/logout`, { exact: true })
      .waitFor();
    await page
      .getByText(
        `如需在这里退出时同时退出平台，请登记此退出后回调地址：${rig.server.config.publicUrl}/?notice=signed-out`,
        {
          exact: true,
        },
      )
      .waitFor();
    expect(await page.content()).not.toContain(SECRET);

    const listed = await connectors();
    expect(listed.map((c) => [c.code, c.kind, c.enabled])).toEqual([
      ['qingshan-cas', 'cas', true],
      ['qingshan-cloud', 'oidc', true],
    ]);
    expect(listed[0]?.settings).toMatchObject({ force_sign_in: true, sign_out_at_school: false });
    expect(listed[1]?.settings).toMatchObject({ preset: 'oidc', issuer, force_sign_in: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-connectors.zh-CN.png'), fullPage: true });
  });

  it('edits a mapping', async () => {
    await page.getByRole('button', { name: '编辑 区教育云平台 的映射' }).click();
    const card = page.getByRole('region', { name: '区教育云平台 的属性映射' });
    await card.waitFor();
    await card.getByLabel('表示教师的取值（逗号分隔）').fill('JS, 教师');
    await card.getByLabel('班级属性（留空：不读取）').fill('');
    await card.getByRole('button', { name: '保存映射' }).click();
    await page.getByText('已保存 区教育云平台 的映射。').waitFor();
    const cloud = (await connectors()).find((c) => c.code === 'qingshan-cloud');
    expect(cloud?.mapping).toMatchObject({ teacher_values: ['js', '教师'], class_attribute: '', subject: 'sub' });
  });

  it('edits a platform’s settings: its name and issuer change, a blank client secret keeps the sealed one', async () => {
    const before = (await connectors()).find((c) => c.code === 'qingshan-cloud');
    const sealed = async () =>
      JSON.parse(
        (
          await rig.server.app.ctx.db
            .selectFrom('school_connectors')
            .select('settings')
            .where('code', '=', 'qingshan-cloud')
            .executeTakeFirstOrThrow()
        ).settings,
      ).client_secret_sealed as string;
    const sealedBefore = await sealed();
    await page.getByRole('button', { name: '编辑 区教育云平台 的设置' }).click();
    const card = page.getByRole('region', { name: '区教育云平台（qingshan-cloud）的设置' });
    await card.waitFor();
    expect(await card.getByLabel('Issuer 地址（OpenID Connect）').inputValue()).toBe(issuer);
    expect(await card.getByLabel('新的客户端密钥（留空则保留当前密钥）').inputValue()).toBe('');
    const forceSignIn = card.getByLabel('每次登录都要输入学校账号的密码（适合共用电脑）');
    expect(await forceSignIn.isChecked()).toBe(false);
    await forceSignIn.check();
    await card.getByLabel('在这里退出时，同时退出学校系统').check();
    await card.getByLabel('学生搜索时看到的名称').fill('区教育云平台（新）');
    await card.getByLabel('Issuer 地址（OpenID Connect）').fill('http://id.edu-cloud.example.cn');
    await card.getByRole('button', { name: '保存设置' }).click();
    await card.getByRole('alert').waitFor();
    // An issuer without a discovery document is refused when saved.
    await card.getByLabel('Issuer 地址（OpenID Connect）').fill(`${rig.server.url}/nothing-here`);
    await card.getByRole('button', { name: '保存设置' }).click();
    await card.getByRole('alert').filter({ hasText: 'settings.issuer' }).waitFor();
    await card.getByLabel('Issuer 地址（OpenID Connect）').fill(otherIssuer);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await card.getByRole('button', { name: '保存设置' }).click();
    await page.getByText('已保存 区教育云平台（新） 的设置。').waitFor();
    const after = (await connectors()).find((c) => c.code === 'qingshan-cloud');
    expect(after).toMatchObject({ id: before?.id, kind: 'oidc', name: '区教育云平台（新）' });
    expect(after?.settings).toMatchObject({
      issuer: otherIssuer,
      client_id: 'edupass',
      force_sign_in: true,
      sign_out_at_school: true,
    });
    expect(await sealed()).toBe(sealedBefore);
    expect(JSON.stringify(after)).not.toContain(SECRET);
  });

  it('switches a connector off and on in English on a phone, each after a confirmation naming it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('heading', { name: 'School sign-in', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'qingshan-cas' });
    await row.getByRole('button', { name: 'Switch off' }).click();
    const question = page.getByRole('dialog', { name: 'Switch off 青山中学统一身份认证 (qingshan-cas)?' });
    await question.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => `${el.tagName}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    );
    expect(wide).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-connectors-confirm.en.390.png'), fullPage: true });
    await question.getByRole('button', { name: 'Switch off' }).click();
    await page.getByText('青山中学统一身份认证 is switched off.').waitFor();
    expect((await connectors()).find((c) => c.code === 'qingshan-cas')?.enabled).toBe(false);

    await row.getByRole('button', { name: 'Switch on' }).click();
    await page
      .getByRole('dialog', { name: 'Switch on 青山中学统一身份认证 (qingshan-cas)?' })
      .getByRole('button', { name: 'Switch on' })
      .click();
    await page.getByText('青山中学统一身份认证 is switched on.').waitFor();
    expect((await connectors()).find((c) => c.code === 'qingshan-cas')?.enabled).toBe(true);
  });
});
