/**
 * Only operators see the console: a signed-in non-operator gets "operators only" and no console
 * data, and every admin call answers 403 (E_0 without a session, E_4 for a non-operator).
 */
import { adminRoutes } from '@edupass/protocol';
import { type Account, signUp } from '@edupass/test-kit/accounts';
import { client } from '@edupass/test-kit/http-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestContext } from '../../web/e2e/support/pages.ts';
import { type ConsoleRig, openConsole, startConsoleRig } from './console-harness.ts';

let rig: ConsoleRig;
let user: Account;

beforeAll(async () => {
  rig = await startConsoleRig();
  user = await signUp(rig.server);
});
afterAll(() => rig?.close());

const USAGE_PATHS = [
  '/admin/usage/events',
  '/admin/usage/uniques',
  '/admin/usage/durations',
  '/admin/monitor/errors',
  '/admin/monitor/api',
  '/admin/monitor/vitals',
];

describe('a non-operator', () => {
  it('signs in and sees "operators only", with no console section and no admin answer but 403', async () => {
    const adminAnswers: { url: string; status: number }[] = [];
    const page = await openConsole(rig, user.phone, user.password);
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/admin/')) {
        adminAnswers.push({ url: response.url(), status: response.status() });
      }
    });
    await page.getByRole('heading', { name: '仅限运营人员' }).waitFor();
    expect(await page.getByRole('navigation').count()).toBe(0);
    for (const hash of [
      '#/users',
      `#/users/${user.userId}`,
      '#/schools',
      '#/teachers',
      '#/agreements',
      '#/captcha',
      '#/keys',
      '#/usage',
      '#/monitor',
      '#/audit',
    ]) {
      await page.goto(`${rig.server.url}/console.html${hash}`);
      await page.getByRole('heading', { name: '仅限运营人员' }).waitFor();
      expect(await page.locator('.console-user-list, .console-table, .console-dashboard').count()).toBe(0);
    }
    expect(adminAnswers.length).toBeGreaterThan(0);
    for (const answer of adminAnswers) expect(answer.status).toBe(403);
    // The page can sign out again.
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByRole('heading', { name: '运营人员登录' }).waitFor();
  });

  it('gets 403 from every admin API: E_0 without a session, E_4 with one', async () => {
    const call = client(rig.server.url);
    const paths = [
      ...Object.values(adminRoutes).map((spec) => ({
        method: spec.method,
        path: spec.path.replace(':id', String(user.userId)),
      })),
      ...USAGE_PATHS.map((path) => ({ method: 'GET' as const, path: `${path}?product=edupass&key=x` })),
    ];
    for (const { method, path } of paths) {
      const body = method === 'GET' ? undefined : {};
      const anonymous = await call(method, path, body);
      expect([path, anonymous.status, (anonymous.body as { error_code?: string }).error_code]).toEqual([
        path,
        403,
        'E_0',
      ]);
      const signedIn = await call(method, path, body, { token: user.token });
      expect([path, signedIn.status, (signedIn.body as { error_code?: string }).error_code]).toEqual([
        path,
        403,
        'E_4',
      ]);
    }
  });

  it('the /console address leads to the console page', async () => {
    const response = await fetch(`${rig.server.url}/console`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/console.html');
    const context = await newTestContext(rig.browser, { locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${rig.server.url}/console`);
    await page.getByRole('heading', { name: '运营人员登录' }).waitFor();
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await context.close();
  });

  it("follows the browser's language until one is chosen; the choice is kept", async () => {
    const context = await newTestContext(rig.browser, { locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${rig.server.url}/console.html`);
    await page.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.reload();
    await page.getByRole('heading', { name: '运营人员登录' }).waitFor();
    await context.close();
  });
});
