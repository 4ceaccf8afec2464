/**
 * The captcha overlay speaks the web client's language: Chinese while the client is in zh-CN, English
 * once the visitor switches, in the same tab (the captcha SDK is loaded once; each verification gets
 * the language of its moment). What screen readers hear is checked by accessible name, and axe finds
 * no serious or critical violation in either language.
 */

import { clearCaptchaPolicy, setCaptchaPolicy } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';

/** Written out rather than read from the SDK's table, so a wrong table fails here. */
const WORDS = {
  'zh-CN': {
    prompt: '拖动下方滑块完成验证',
    close: '关闭',
    start: '0 / ',
    hint: '拖动滑块完成拼图',
    rejected: '没有对准缺口，请再拖一次',
    network: '网络出错，请检查网络后重试',
    retry: '换一张',
  },
  // The specification's English, word for word, where it quotes the box; plain English for the rest.
  en: {
    prompt: 'drag the slider below to complete verification',
    close: 'close',
    start: '0 of ',
    hint: 'Drag the slider to fit the piece',
    rejected: 'The piece did not fit the gap. Try again with the new puzzle.',
    network: 'Network error. Check the connection and try again.',
    retry: 'New puzzle',
  },
} as const;

let app: AppUnderTest;
let tab: TestPage;

beforeAll(async () => {
  app = await startApp();
  await setCaptchaPolicy(app.server.app.ctx, 'edupass', 'silence', 'always');
  tab = await openPage(app.browser, { locale: 'zh-CN' });
}, 120_000);
afterAll(async () => {
  await tab?.close();
  if (app) await clearCaptchaPolicy(app.server.app.ctx, 'edupass', 'silence');
  await app?.close();
});

/**
 * Asks for a sign-in code, which the policy guards with the slide puzzle; the first challenge fails
 * on the network so the retry text shows too. Checks every text the overlay says, then closes it.
 */
const checkOverlay = async (page: Page, locale: keyof typeof WORDS) => {
  const words = WORDS[locale];
  await page.route('**/captcha/slide/challenge', (route) => route.abort('connectionrefused'), { times: 1 });
  await page.locator('input[type="tel"]').fill('13912345678');
  await page.locator('.code-button').click();

  const dialog = page.getByRole('dialog', { name: words.prompt });
  await dialog.waitFor();
  expect(await page.locator('[data-edupass-captcha="mask"]').getAttribute('lang')).toBe(locale);
  await dialog.locator('[aria-live]', { hasText: words.network }).waitFor();
  const retry = dialog.getByRole('button', { name: words.retry });
  expect(await seriousViolations(page)).toEqual([]);

  await retry.click();
  const slider = dialog.getByRole('slider', { name: words.prompt });
  await dialog.locator('[role="slider"]:not([aria-disabled])').waitFor();
  expect(await slider.getAttribute('aria-valuetext')).toMatch(new RegExp(`^${words.start}\\d+$`));
  // The track says what to do, and the slider is described by it.
  await dialog.locator('[data-edupass-captcha="hint"]', { hasText: words.hint }).waitFor();
  expect(await page.getByRole('slider', { description: words.hint }).count()).toBe(1);
  expect(await dialog.getByRole('button', { name: words.close, exact: true }).count()).toBe(1);
  expect(await seriousViolations(page)).toEqual([]);

  // A drop at the very start misses the gap: the refusal is said in the same language.
  await slider.press('Home');
  await slider.press('Enter');
  await dialog.locator('[aria-live]', { hasText: words.rejected }).waitFor();

  await page.keyboard.press('Escape');
  await page.locator('[data-edupass-captcha="mask"]').waitFor({ state: 'detached' });
};

describe('the captcha overlay in the web client', () => {
  it('is Chinese while the client is in zh-CN, and English after switching to en', async () => {
    const { page } = tab;
    await page.goto(app.server.url);
    await expectScreen(page, '登录');
    await checkOverlay(page, 'zh-CN');

    await page.getByRole('button', { name: '语言: English' }).click();
    await expectScreen(page, 'Sign in');
    await checkOverlay(page, 'en');
    expect(tab.errors).toEqual([]);
  });
});
