/**
 * Publishing an agreement version and changing the captcha policy from the console, in Chromium
 * against the real server; each change is checked where users meet it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, nextPhone, PID, signUp } from '../../server/src/testing/accounts.ts';
import { client } from '../../server/src/testing/http-client.ts';
import { type ConsoleRig, openConsole, startConsoleRig } from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
let call: ReturnType<typeof client>;

beforeAll(async () => {
  rig = await startConsoleRig();
  call = client(rig.server.url);
  page = await openConsole(rig, rig.operator.phone, rig.operator.password);
  await page.getByRole('heading', { name: '用户', level: 1 }).waitFor();
});
afterAll(() => rig?.close());

const section = (name: string) => page.getByRole('navigation').getByRole('link', { name }).click();

describe('agreements', () => {
  it('a published version is listed, can be read, and users are asked to sign it', async () => {
    const user = await signUp(rig.server);
    await section('协议');
    await page.getByRole('heading', { name: '协议', level: 1 }).waitFor();
    await page.getByLabel('代码', { exact: true }).fill('classroom_rules');
    await page.getByLabel('标题').fill('课堂守则');
    await page.getByLabel('内容').fill('第一条：按时上课。\n第二条：尊重同学。');
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByText(/已发布 classroom_rules 第 1 版/).waitFor();

    await page.getByRole('button', { name: '查看 课堂守则 v1' }).click();
    const viewer = page.getByRole('region', { name: /正在查看 课堂守则/ });
    await expect.poll(() => viewer.textContent()).toContain('第二条：尊重同学。');

    const needSign = await call<{ id: number; code?: string; title?: string }[] | { list?: unknown[] }>(
      'GET',
      `${A}/agreements/need-sign?pid=${PID}`,
      undefined,
      { token: user.token },
    );
    expect(needSign.status).toBe(200);
    expect(JSON.stringify(needSign.body)).toContain('课堂守则');

    // A second version of the same code.
    await page.getByLabel('代码', { exact: true }).fill('classroom_rules');
    await page.getByLabel('标题').fill('课堂守则');
    await page.getByLabel('内容').fill('第一条：按时上课。');
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByText(/已发布 classroom_rules 第 2 版/).waitFor();
    await page.getByRole('button', { name: '查看 课堂守则 v2' }).waitFor();
  });
});

describe('captcha policy', () => {
  const rule = async (scene: string) =>
    (
      await call<{ rule: string; ticket?: string }>('POST', '/captcha/rule/v3', {
        pid: PID,
        scene,
        identity: nextPhone(),
        capabilities: ['SLIDE'],
      })
    ).body;

  it('never, then always, then removed: the rule service follows each change', async () => {
    await section('验证码策略');
    await page.getByRole('heading', { name: '验证码策略', level: 1 }).waitFor();
    const save = async (policy: string) => {
      await page.getByLabel('产品（pid）').fill(PID);
      await page.getByLabel('场景').fill('login');
      await page.getByRole('radio', { name: policy }).check();
      await page.getByRole('button', { name: '保存策略' }).click();
      await page.getByText(`已保存策略：${PID}:login → ${policy}。`).waitFor();
    };

    await save('从不');
    const never = await rule('login');
    expect(never.rule).toBe('DEFAULT');
    expect(never.ticket).toBeTruthy();

    await save('总是');
    const always = await rule('login');
    expect(always.rule).toBe('SLIDE');
    expect(always.ticket ?? '').toBe('');
    const table = page.getByRole('region', { name: '运营设置的策略' });
    await expect.poll(() => table.textContent()).toContain('总是');

    await page.getByRole('button', { name: `删除策略 ${PID}:login` }).click();
    await page.getByText(`已删除策略：${PID}:login。`).waitFor();
    await expect.poll(() => table.textContent()).toContain('暂无运营设置的策略');
  });

  it('vendor secrets never reach the console: only whether each is set', async () => {
    const answer = await page.evaluate(async () => {
      const session = JSON.parse(sessionStorage.getItem('edupass.console.session') ?? '{}') as { access: string };
      const response = await fetch('/admin/captcha', { headers: { Authorization: `Bearer ${session.access}` } });
      return (await response.json()) as { vendors: { name: string; secrets: Record<string, unknown> }[] };
    });
    expect(answer.vendors.map((v) => v.name)).toEqual(['GEETEST', 'TENCENT', 'NETEASE', 'NEXTDATA', 'ALIYUN']);
    for (const vendor of answer.vendors) {
      for (const value of Object.values(vendor.secrets)) expect(typeof value).toBe('boolean');
    }
  });
});
