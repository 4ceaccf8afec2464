/**
 * Staff identity controls in the console, in a real browser on the real server with the shipped policy
 * and time-out (12 characters of 3 kinds, 90 days, 15 minutes), in Chinese and in English: an operator
 * whose password is past 90 days is sent to the change form first, a weak new password is refused there,
 * and the console warns two minutes before the idle time-out, keeps the session when asked, and signs
 * out with a notice when nobody answers.
 */
import { join } from 'node:path';
import { nextPhone, STAFF_PASSWORD } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { createAdmin, loadConfig } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestContext, watchPage } from '../../web/e2e/support/pages.ts';
import { accessibilityViolations, type ConsoleRig, SCREENSHOTS, startConsoleRig } from './console-harness.ts';

const DAY = 86_400_000;
let shift = 0;
let rig: ConsoleRig;

beforeAll(async () => {
  const shipped = loadConfig({});
  rig = await startConsoleRig(
    { now: () => Date.now() + shift },
    { staffPassword: shipped.staffPassword, staffIdleMinutes: shipped.staffIdleMinutes },
  );
});
afterAll(() => rig?.close());

const WORDS = {
  'zh-CN': {
    identity: '手机号、用户名或邮箱',
    password: '密码',
    signIn: '登录',
    expired: '请设置新密码',
    old: '当前密码',
    new: '新密码',
    confirm: '再次输入新密码',
    change: '修改密码',
    weak: /工作人员密码至少需要 12 个字符/,
    users: '用户',
    idle: '你还在吗？',
    stay: '保持登录',
    signedOut: '你已 15 分钟没有操作，已自动退出登录。请重新登录。',
  },
  en: {
    identity: 'Phone, username or e-mail',
    password: 'Password',
    signIn: 'Sign in',
    expired: 'Choose a new password',
    old: 'Current password',
    new: 'New password',
    confirm: 'New password again',
    change: 'Change password',
    weak: /at least 12 characters and 3 of the 4 kinds/,
    users: 'Users',
    idle: 'Are you still there?',
    stay: 'Stay signed in',
    signedOut: 'You were signed out after 15 minutes without activity. Please sign in again.',
  },
} as const;

type Locale = keyof typeof WORDS;

/** A fresh context in `locale` with the page's clock under the test's hand, at the console's sign-in. */
const openConsoleIn = async (locale: Locale, phone: string, password: string): Promise<Page> => {
  const context = await newTestContext(rig.browser, { locale, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page);
  await page.clock.install();
  await page.goto(`${rig.server.url}/console.html`);
  const words = WORDS[locale];
  await page.getByLabel(words.identity).fill(phone);
  await page.getByLabel(words.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: words.signIn }).click();
  return page;
};

describe.each(['zh-CN', 'en'] as const)('staff identity in the console (%s)', (locale) => {
  const words = WORDS[locale];

  it('a password past 90 days is changed first; a weak one is refused on the way', async () => {
    shift = 0;
    const phone = nextPhone();
    await createAdmin(rig.server.app.ctx, phone, STAFF_PASSWORD);
    shift = 91 * DAY;
    try {
      const page = await openConsoleIn(locale, phone, STAFF_PASSWORD);
      await page.getByRole('heading', { name: words.expired, level: 1 }).waitFor();
      // Nothing else of the console is there: no sections.
      expect(await page.getByRole('navigation').count()).toBe(0);
      await page.getByLabel(words.old, { exact: true }).fill(STAFF_PASSWORD);
      await page.getByLabel(words.new, { exact: true }).fill('kestrel27182');
      await page.getByLabel(words.confirm, { exact: true }).fill('kestrel27182');
      await page.getByRole('button', { name: words.change }).click();
      await page.getByText(words.weak).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await keepScreenshot(page, { path: join(SCREENSHOTS, `password-expired-${locale}.png`), fullPage: true });
      await page.getByLabel(words.new, { exact: true }).fill('Osprey#31415');
      await page.getByLabel(words.confirm, { exact: true }).fill('Osprey#31415');
      await page.getByRole('button', { name: words.change }).click();
      await page.getByRole('heading', { name: words.users, level: 1 }).waitFor();
      await page.context().close();
    } finally {
      shift = 0;
    }
  });

  it('warns two minutes before the idle time-out, stays when asked, and signs out when not', async () => {
    const phone = nextPhone();
    await createAdmin(rig.server.app.ctx, phone, STAFF_PASSWORD);
    const page = await openConsoleIn(locale, phone, STAFF_PASSWORD);
    await page.getByRole('heading', { name: words.users, level: 1 }).waitFor();
    // The time-out counts from the last call: the user list's first page must have been asked for (and
    // answered) before the clock jumps, or a loaded browser starts it after the jump and the warning is late.
    await page.getByRole('list', { name: words.users }).waitFor();
    await page.locator('.console-sentinel').waitFor({ state: 'detached' });
    const warning = page.getByRole('alertdialog', { name: words.idle });
    await page.clock.fastForward('12:00');
    expect(await warning.count()).toBe(0);
    await page.clock.fastForward('01:30');
    await warning.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, `idle-warning-${locale}.png`), fullPage: true });
    // Staying is a call the server counts: the warning goes, and comes back only 13 minutes later.
    await page.getByRole('button', { name: words.stay }).click();
    await warning.waitFor({ state: 'detached' });
    await page.clock.fastForward('12:00');
    expect(await warning.count()).toBe(0);
    await page.clock.fastForward('04:00');
    await page.getByText(words.signedOut).waitFor();
    await page.context().close();
  });
});
