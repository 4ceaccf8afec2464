/**
 * Publishing an agreement version, changing the captcha policy, provider and vendor keys from the
 * console, in Chromium against the real server; each change is checked where users meet it, and then
 * found in the audit log with the operator who made it.
 */
import type { CaptchaSettings } from '@edupass/protocol';
import { A, nextPhone, PASSWORD, PID, signIn, signUp } from '@edupass/test-kit/accounts';
import { PEER_KEYS, startVendorPeers, type VendorPeers } from '@edupass/test-kit/captcha-vendor-peers';
import { client } from '@edupass/test-kit/http-client';
import { createAdmin } from '@edupass/test-kit/server';
import { solveSlideTicket } from '@edupass/test-kit/slide-tickets';
import { errorsZhCN } from '@edupass/ui-kit/errors/zh-CN.ts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsole,
  openConsoleAsOperator,
  operatorToken,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
let call: ReturnType<typeof client>;
let peers: VendorPeers;

beforeAll(async () => {
  [rig, peers] = await Promise.all([startConsoleRig(), startVendorPeers()]);
  call = client(rig.server.url);
  page = await openConsoleAsOperator(rig);
});
afterAll(async () => {
  await rig?.close();
  await peers?.close();
});

const section = (name: string) => page.getByRole('navigation').getByRole('link', { name }).click();

describe('agreements', () => {
  it('a published version is listed, can be read, and users are asked to sign it', async () => {
    const user = await signUp(rig.server);
    await section('协议');
    await page.getByRole('heading', { name: '协议', level: 1 }).waitFor();
    await page.getByLabel('代码', { exact: true }).fill('classroom_rules');
    // One title and content box per language.
    const chinese = page.getByRole('group', { name: '中文' });
    const english = page.getByRole('group', { name: '英文' });
    await chinese.getByLabel('标题').fill('课堂守则');
    await chinese.getByLabel('内容').fill('第一条：按时上课。\n第二条：尊重同学。');
    await english.getByLabel('标题').fill('Classroom rules');
    await english.getByLabel('内容').fill('One: be on time.\nTwo: respect each other.');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByText(/已发布 classroom_rules 第 1 版/).waitFor();

    await page.getByRole('button', { name: '查看 课堂守则 v1' }).click();
    const viewer = page.getByRole('region', { name: /正在查看 课堂守则/ });
    await expect.poll(() => viewer.getByRole('region', { name: '中文' }).textContent()).toContain('第二条：尊重同学。');
    await expect
      .poll(() => viewer.getByRole('region', { name: '英文' }).textContent())
      .toContain('Two: respect each other.');

    // Each reader gets their language.
    for (const [language, title] of [
      ['zh-CN', '课堂守则'],
      ['en', 'Classroom rules'],
    ]) {
      const read = await call<{ title: string; content: string }>(
        'GET',
        `${A}/agreements/text?code=classroom_rules&lang=${language}`,
      );
      expect(read.body.title).toBe(title);
    }

    const needSign = await call<{ id: number; code?: string; title?: string }[] | { list?: unknown[] }>(
      'GET',
      `${A}/agreements/need-sign?pid=${PID}`,
      undefined,
      { token: user.token },
    );
    expect(needSign.status).toBe(200);
    expect(JSON.stringify(needSign.body)).toContain('课堂守则');

    // A second version of the same code, in Chinese only.
    await page.getByLabel('代码', { exact: true }).fill('classroom_rules');
    await chinese.getByLabel('标题').fill('课堂守则');
    await chinese.getByLabel('内容').fill('第一条：按时上课。');
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

    // Removing asks first, naming the policy; Cancel keeps it.
    const removing = page.getByRole('dialog', { name: `删除策略 ${PID}:login？` });
    await page.getByRole('button', { name: `删除策略 ${PID}:login` }).click();
    await removing.getByRole('button', { name: '取消' }).click();
    await removing.waitFor({ state: 'hidden' });
    expect((await rule('login')).rule).toBe('SLIDE');
    await page.getByRole('button', { name: `删除策略 ${PID}:login` }).click();
    await removing.getByRole('button', { name: '删除' }).click();
    await page.getByText(`已删除策略：${PID}:login。`).waitFor();
    await expect.poll(() => table.textContent()).toContain('暂无运营设置的策略');
  });

  it('shows the risk thresholds in effect, read-only', async () => {
    const card = page.getByRole('region', { name: '风险阈值' });
    await card.waitFor();
    const thresholds = rig.server.config.captcha;
    const row = (label: string) => card.getByRole('row', { name: new RegExp(`^${label}`) });
    expect(await row('同一 IP 的密码错误次数').textContent()).toContain(String(thresholds.riskIpLoginFailures));
    expect(await row('同一账号自上次成功后未经验证的密码登录次数').textContent()).toContain(
      String(thresholds.riskLoginFailures),
    );
    expect(await row('无法运行滑块拼图的客户端将得到').textContent()).toContain('拒绝（未配置验证码厂商）');
    expect(await card.getByRole('textbox').count()).toBe(0);
  });

  it('vendor keys and a provider set in the console: the rule and the verifier use them at once', async () => {
    await page.getByRole('heading', { name: '验证码策略', level: 1 }).waitFor();
    await page.getByLabel('产品（pid）').fill(PID);
    await page.getByLabel('场景').fill('login');
    await page.getByRole('radio', { name: '总是' }).check();
    await page.getByRole('button', { name: '保存策略' }).click();
    await page.getByText(`已保存策略：${PID}:login → 总是。`).waitFor();

    // A vendor without keys cannot be chosen: the server refuses (the catalogue's words first, then the
    // server's detail naming the missing keys, in the console's Chinese), and the vendor's entry says which
    // keys are missing.
    await page.getByRole('combobox', { name: `${PID} 的验证方式` }).selectOption('NETEASE');
    await page.getByRole('button', { name: `保存 ${PID} 的验证方式` }).click();
    const refusal = page.getByRole('alert');
    await expect.poll(() => refusal.textContent()).toContain('captchaId (NETEASE_CAPTCHA_ID)');
    expect(await refusal.textContent()).toMatch(new RegExp(`^${errorsZhCN.INVALID_REQUEST} NETEASE 的密钥尚未设置`));
    expect(await refusal.textContent()).not.toContain('cannot be chosen');
    expect(await page.locator('summary', { hasText: 'NETEASE' }).textContent()).toContain('缺少：captchaId');

    const keys = PEER_KEYS.netease;
    await page.locator('summary', { hasText: 'NETEASE' }).click();
    await page.getByLabel('captchaId NETEASE_CAPTCHA_ID').fill(keys.captchaId);
    await page.getByLabel('secretId NETEASE_SECRET_ID').fill(keys.secretId);
    await page.getByLabel('secretKey NETEASE_SECRET_KEY').fill(keys.secretKey);
    await page.getByLabel('endpoint NETEASE_CAPTCHA_ENDPOINT').fill(`${peers.url}/netease/verify`);
    // The stand-in is not on NetEase's own hosts: saving it needs the custom-endpoint mark.
    await page
      .getByRole('checkbox', { name: /自定义接口地址/ })
      .first()
      .check();
    expect(await page.getByLabel('secretKey NETEASE_SECRET_KEY').getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: '保存 NETEASE 密钥' }).click();
    await page.getByText('已保存 NETEASE：captchaId, secretId, secretKey, endpoint。').waitFor();
    const secretState = page.locator('#captcha-key-NETEASE-secretKey-state');
    await expect.poll(() => secretState.textContent()).toBe('已设置（控制台）');
    expect(await page.getByLabel('secretKey NETEASE_SECRET_KEY').inputValue()).toBe('');
    const html = await page.content();
    expect(html).not.toContain(keys.secretKey);
    expect(html).not.toContain(keys.secretId);

    await page.getByRole('combobox', { name: `${PID} 的验证方式` }).selectOption('NETEASE');
    await page.getByRole('button', { name: `保存 ${PID} 的验证方式` }).click();
    await page.getByText(`已保存验证方式：${PID} → NETEASE。`).waitFor();
    await page.getByText('当前生效：NETEASE').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    const challenged = await rule('login');
    expect(challenged).toMatchObject({ rule: 'NETEASE', appid: keys.captchaId });
    const exchanged = await call<{ ticket: string }>('POST', '/captcha/netease', {
      validate: 'pass-e2e',
      appid: keys.captchaId,
    });
    expect(exchanged.status).toBe(200);
    expect(peers.calls.filter((c) => c.vendor === 'netease').at(-1)?.signatureOk).toBe(true);

    // Back to configuration: SLIDE again.
    await page.getByRole('combobox', { name: `${PID} 的验证方式` }).selectOption({ label: '使用配置' });
    await page.getByRole('button', { name: `保存 ${PID} 的验证方式` }).click();
    await page.getByText(`${PID} 的验证方式已改为使用配置。`).waitFor();
    expect((await rule('login')).rule).toBe('SLIDE');

    // Clearing the keys set here asks first, naming the vendor: Escape keeps them, the dialog's button clears them.
    const clearing = page.getByRole('dialog', { name: '清除 NETEASE 在控制台设置的值？' });
    await page.getByRole('button', { name: '清除 NETEASE 在控制台设置的值', exact: true }).click();
    await clearing.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await clearing.waitFor({ state: 'hidden' });
    expect(await secretState.textContent()).toBe('已设置（控制台）');
    await page.getByRole('button', { name: '清除 NETEASE 在控制台设置的值', exact: true }).click();
    await clearing.getByRole('button', { name: '清除控制台设置' }).click();
    await page.getByText('已清除 NETEASE 在控制台设置的值：使用配置。').waitFor();
    await expect.poll(() => secretState.textContent()).not.toBe('已设置（控制台）');
  });

  it('vendor secrets never reach the console: only where each comes from', async () => {
    const answer = await page.evaluate(async () => {
      const kept = JSON.parse(sessionStorage.getItem('edupass.console.tokens') ?? '{}') as {
        tokens: { access: { token: string } };
      };
      const response = await fetch('/admin/captcha', {
        headers: { Authorization: `Bearer ${kept.tokens.access.token}` },
      });
      return (await response.json()) as CaptchaSettings;
    });
    expect(answer.vendors.map((v) => v.name)).toEqual(['GEETEST', 'TENCENT', 'NETEASE', 'NEXTDATA', 'ALIYUN']);
    for (const vendor of answer.vendors) {
      for (const field of vendor.fields.filter((f) => f.secret)) expect(field).not.toHaveProperty('value');
    }
    expect(JSON.stringify(answer)).not.toContain(PEER_KEYS.netease.secretKey);
  });
});

describe('audit log', () => {
  it('lists what was done in the console newest first, with the operator, to an auditor; filters; loads more', async () => {
    // Older entries first, enough for a second page.
    // The login policy is `always` since the test above: the operator solves the puzzle, as in a browser.
    const ticket = await solveSlideTicket(rig.server, 'login', rig.operator.phone);
    const token = await operatorToken(rig, ticket);
    for (let n = 0; n < 55; n += 1) {
      await call('POST', '/admin/captcha/policies', { pid: PID, scene: `seed${n}`, policy: 'risk' }, { token });
    }
    // Back to the configured login policy, so the auditor signs in below without the puzzle.
    await call('POST', '/admin/captcha/policies/clear', { pid: PID, scene: 'login' }, { token });

    const user = await signUp(rig.server);
    await page.evaluate((id) => {
      window.location.hash = `#/users/${id}`;
    }, user.userId);
    await page.getByRole('button', { name: '封禁用户' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '封禁用户' }).click();
    await page.getByText('已封禁该用户，其会话已全部结束。').waitFor();

    await section('协议');
    await page.getByLabel('代码', { exact: true }).fill('audit_rules');
    await page.getByRole('group', { name: '中文' }).getByLabel('标题').fill('审计守则');
    await page.getByRole('group', { name: '中文' }).getByLabel('内容').fill('记录每一次更改。');
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByText(/已发布 audit_rules 第 1 版/).waitFor();

    await section('验证码策略');
    await page.getByLabel('产品（pid）').fill(PID);
    await page.getByLabel('场景').fill('register');
    await page.getByRole('radio', { name: '从不' }).check();
    await page.getByRole('button', { name: '保存策略' }).click();
    await page.getByText(`已保存策略：${PID}:register → 从不。`).waitFor();

    // The operator (system and security duties) has no audit log: an auditor reads it, and lands on it.
    expect(await page.getByRole('navigation').getByRole('link', { name: '操作日志' }).count()).toBe(0);
    const auditor = nextPhone();
    await createAdmin(rig.server.app.ctx, auditor, PASSWORD, ['auditor']);
    const auditorToken = (await signIn(rig.server, auditor, PASSWORD)).access.token;
    const audit = await openConsole(rig, auditor, PASSWORD);
    await audit.getByRole('heading', { name: '操作日志', level: 1 }).waitFor();
    expect(await audit.getByRole('navigation').getByRole('link').allTextContents()).toEqual(['操作日志']);
    const table = audit.getByRole('table', { name: '操作日志' });
    const bodyRows = table.locator('tbody tr');
    await expect.poll(() => bodyRows.count()).toBe(50);
    const cells = async (n: number) => (await bodyRows.nth(n).locator('td').allTextContents()).map((c) => c.trim());
    // The operator's account has the default nickname every new account gets (用户 + 8 digits).
    const operatorShown = new RegExp(`^#\\d+ 用户\\d{8} · ${rig.operator.phone}$`);
    const newest = [await cells(0), await cells(1), await cells(2)];
    expect(newest.map((row) => [row[2], row[3], row[4]])).toEqual([
      ['设置验证码策略', `captcha:${PID}:register`, 'never'],
      ['发布协议', expect.stringMatching(/^agreement:\d+$/), 'audit_rules v1'],
      ['封禁用户', `user:${user.userId}`, ''],
    ]);
    for (const row of newest) expect(row[1]).toMatch(operatorShown);
    expect(await accessibilityViolations(audit)).toEqual([]);

    const total = (await call<unknown[]>('GET', '/admin/audit?limit=500', undefined, { token: auditorToken })).body
      .length;
    expect(total).toBeGreaterThan(50);
    await audit.getByRole('button', { name: '加载更多' }).click();
    await expect.poll(() => bodyRows.count()).toBe(Math.min(total, 100));
    while (await audit.getByRole('button', { name: '加载更多' }).isVisible()) {
      await audit.getByRole('button', { name: '加载更多' }).click();
      await page
        .getByRole('button', { name: '加载更多' })
        .or(audit.getByText(/已到日志末尾/))
        .first()
        .waitFor();
    }
    await audit.getByText(`已到日志末尾（共 ${total} 条）。`).waitFor();

    await audit.getByLabel('操作', { exact: true }).selectOption({ label: '封禁用户' });
    await audit.getByLabel('运营人员').selectOption({ index: 1 });
    await audit.getByRole('button', { name: '显示' }).click();
    await expect.poll(() => bodyRows.count()).toBe(1);
    expect((await cells(0))[3]).toBe(`user:${user.userId}`);
  });
});
