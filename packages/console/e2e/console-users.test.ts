/**
 * The console's user tasks in Chromium against the real server: search, open a user, block (their
 * session ends and sign-in answers AC3_44), unblock, end every session, delete the account. Each but
 * unblock asks first, in a dialog naming the user (nickname and phone): Cancel or Escape leaves it.
 */
import { join } from 'node:path';
import { A, type Account, PASSWORD, PID, signUp, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { client } from '@edupass/test-kit/http-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  SCREENSHOTS,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
let user: Account;
let call: ReturnType<typeof client>;
let signed: { id: number; title: string; version: number }[] = [];

beforeAll(async () => {
  rig = await startConsoleRig();
  call = client(rig.server.url);
  user = await signUp(rig.server);
  await call('PATCH', `${A}/info`, { nickname: `学生${user.userId}` }, { token: user.token });
  const toSign = await call<{ id: number; title: string; version: number }[]>(
    'GET',
    `${A}/agreements/need-sign`,
    undefined,
    {
      token: user.token,
    },
  );
  signed = toSign.body;
  const answer = await call(
    'POST',
    `${A}/agreements/sign`,
    { agreement_ids: signed.map((a) => a.id), pid: PID },
    { token: user.token },
  );
  expect(answer.status).toBe(204);
  page = await openConsoleAsOperator(rig);
});
afterAll(() => rig?.close());

const profile = (token: string) => call('GET', `${A}/profile`, undefined, { token });
const login = () =>
  call('POST', `${A}/login`, { identity: user.phone, password: PASSWORD, pid: PID }, { headers: TOKEN_SET_HEADERS });

const openUser = async () => {
  await page.getByRole('navigation').getByRole('link', { name: '用户' }).click();
  await page.getByLabel('搜索用户').fill(user.phone);
  await page.getByRole('button', { name: '搜索' }).click();
  await page.getByRole('link', { name: `学生${user.userId}` }).click();
  await page.getByRole('heading', { name: `用户 ${user.userId} · 学生${user.userId}` }).waitFor();
};

describe('users in the console', () => {
  it('finds a user by phone, nickname and id, and opens their page with identities and sign-ins', async () => {
    for (const q of [user.phone, `学生${user.userId}`, String(user.userId)]) {
      await page.getByLabel('搜索用户').fill(q);
      await page.getByRole('button', { name: '搜索' }).click();
      await expect.poll(() => page.getByRole('link', { name: `学生${user.userId}` }).count()).toBe(1);
    }
    await openUser();
    const identities = page.getByRole('region', { name: '身份信息' });
    await expect.poll(() => identities.textContent()).toContain(user.phone);
    const sessions = page.getByRole('region', { name: '最近登录与会话' });
    await expect.poll(() => sessions.textContent()).toContain('手机号注册');
    expect(await sessions.textContent()).not.toContain('register_phone');
    expect(await sessions.textContent()).toContain('有效');
    await keepScreenshot(sessions, { path: join(SCREENSHOTS, 'console-user-sessions.zh-CN.1280.png') });
    // The method in plain words in English too, then back to Chinese for the rest of the file.
    await page.getByLabel('语言').selectOption('en');
    const english = page.getByRole('region', { name: 'Recent sign-ins and sessions' });
    await expect.poll(() => english.textContent()).toContain('Signed up by phone');
    await keepScreenshot(english, { path: join(SCREENSHOTS, 'console-user-sessions.en.1280.png') });
    await page.getByLabel('Language').selectOption('zh-CN');
    await sessions.waitFor();
    // Agreements signed: each title with its version.
    expect(signed.length).toBeGreaterThan(0);
    const agreements = page.getByRole('region', { name: '已签署的协议' });
    for (const agreement of signed) {
      const row = agreements.locator('tbody tr', { hasText: agreement.title });
      await expect.poll(() => row.textContent()).toContain(`v${agreement.version}`);
    }
  });

  it('block ends the user’s session and sign-in answers AC3_44; unblock lets them in again', async () => {
    expect((await profile(user.token)).status).toBe(200);
    await openUser();
    const blocking = page.getByRole('dialog', { name: `封禁 学生${user.userId}（${user.phone}）？` });
    await page.getByRole('button', { name: '封禁用户' }).click();
    await blocking.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await blocking.getByRole('button', { name: '取消' }).click();
    await blocking.waitFor({ state: 'hidden' });
    expect((await profile(user.token)).status).toBe(200);
    await page.getByText('正常', { exact: true }).waitFor();
    await page.getByRole('button', { name: '封禁用户' }).click();
    await blocking.getByRole('button', { name: '封禁用户' }).click();
    await page.getByText('已封禁该用户，其会话已全部结束。').waitFor();
    await expect.poll(() => page.getByText(/自 .* 起封禁/).count()).toBe(1);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-user-blocked.png'), fullPage: true });

    const after = await profile(user.token);
    expect(after.status).toBe(403);
    expect((await login()).body).toMatchObject({ error_code: 'AC3_44' });

    await page.getByRole('button', { name: '解除封禁' }).click();
    await page.getByText('已解除封禁。').waitFor();
    const again = await login();
    expect(again.status).toBe(200);
    user = {
      ...user,
      token: (again.body as { auth: { token: { access: { token: string } } } }).auth.token.access.token,
    };
  });

  it('ending every session signs the user out everywhere', async () => {
    expect((await profile(user.token)).status).toBe(200);
    await openUser();
    const ending = page.getByRole('dialog', { name: `结束 学生${user.userId}（${user.phone}） 的全部会话？` });
    await page.getByRole('button', { name: '结束全部会话' }).click();
    await ending.waitFor();
    await page.keyboard.press('Escape');
    await ending.waitFor({ state: 'hidden' });
    expect((await profile(user.token)).status).toBe(200);
    await page.getByRole('button', { name: '结束全部会话' }).click();
    await ending.getByRole('button', { name: '结束全部会话' }).click();
    await page.getByText('已结束全部会话。').waitFor();
    expect((await profile(user.token)).status).toBe(403);
    const sessions = page.getByRole('region', { name: '最近登录与会话' });
    await expect.poll(() => sessions.textContent()).not.toContain('有效');
  });

  it('deleting an account asks first, naming the user and their phone; confirmed, it is gone', async () => {
    const pupil = await signUp(rig.server);
    await page.goto(`${rig.server.url}/console.html#/users/${pupil.userId}`);
    await page.getByRole('heading', { name: new RegExp(`^用户 ${pupil.userId} · `) }).waitFor();
    const deleting = page.getByRole('dialog', { name: new RegExp(`^永久删除 .+（${pupil.phone}） 的账号？$`) });
    await page.getByRole('button', { name: '删除账号' }).click();
    await deleting.waitFor();
    await deleting.getByRole('button', { name: '取消' }).click();
    await deleting.waitFor({ state: 'hidden' });
    expect((await profile(pupil.token)).status).toBe(200);
    // The same question in English, with the operator's Cancel and the action's own word.
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('button', { name: 'Delete account' }).click();
    const inEnglish = page.getByRole('dialog', {
      name: new RegExp(`^Delete the account of .+ \\(${pupil.phone}\\) for good\\?$`),
    });
    await inEnglish.getByRole('button', { name: 'Delete account' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    for (const answer of await inEnglish.getByRole('button').all()) {
      expect((await answer.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    }
    await inEnglish.getByRole('button', { name: 'Cancel' }).click();
    await inEnglish.waitFor({ state: 'hidden' });
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('button', { name: '删除账号' }).click();
    await deleting.getByRole('button', { name: '删除账号' }).click();
    await page.getByRole('heading', { name: '用户', level: 1 }).waitFor();
    await expect.poll(async () => (await profile(pupil.token)).status).not.toBe(200);
  });

  it('a long list loads page after page as it scrolls, with avatars loaded lazily', async () => {
    const now = Date.now();
    const rows = Array.from({ length: 75 }, (_, n) => ({
      phone: `137${String(now % 1e6).padStart(6, '0')}${String(n).padStart(2, '0')}`,
      nickname: `批量${n}`,
      avatar_url: `${rig.server.url}/console-avatar-${n}.png`,
    }));
    for (const row of rows) await signUpBare(row);
    const requested = new Set<string>();
    page.on('request', (r) => {
      if (r.url().includes('/console-avatar-')) requested.add(r.url());
    });
    await page.goto(`${rig.server.url}/console.html#/users?q=${encodeURIComponent('批量')}`);
    const items = page.locator('.console-user-row');
    await expect.poll(() => items.count()).toBe(30);
    const avatarsAsked = () => new Set([...requested].map((url) => url.split('?')[0])).size;
    await expect.poll(avatarsAsked).toBeGreaterThan(0);
    // A broken avatar is tried three times, then the initial stands in for it.
    await expect
      .poll(() => [...requested].filter((url) => url.includes('/console-avatar-74.png')).sort())
      .toEqual([
        `${rig.server.url}/console-avatar-74.png`,
        `${rig.server.url}/console-avatar-74.png?attempt=2`,
        `${rig.server.url}/console-avatar-74.png?attempt=3`,
      ]);
    // Only avatars within 1.3 screens were asked for before scrolling (retries of one avatar count once).
    const before = avatarsAsked();
    expect(before).toBeLessThan(30);
    // The third try's failure comes back after its request: the initial then stands in.
    await expect.poll(() => items.first().locator('.console-avatar-fallback').textContent()).toBe('批');
    // Each scroll to the end brings the next page (throttled to 200 ms, distance 0). The rows are
    // counted once a round: a page asked for by the last scroll may arrive between two counts.
    for (let round = 0; round < 10; round++) {
      const shown = await items.count();
      if (shown >= 75) break;
      await page.mouse.wheel(0, 20_000);
      await expect.poll(() => items.count()).toBeGreaterThan(shown);
    }
    await expect.poll(() => items.count()).toBe(75);
    await page.getByText('已到底（共 75 位用户）。').waitFor();
    expect(avatarsAsked()).toBeGreaterThan(before);

    async function signUpBare(row: { phone: string; nickname: string; avatar_url: string }) {
      const account = await signUp(rig.server, row.phone);
      await call(
        'PATCH',
        `${A}/info`,
        { nickname: row.nickname, avatar_url: row.avatar_url },
        { token: account.token },
      );
    }
  });
});
