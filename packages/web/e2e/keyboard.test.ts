/**
 * Keyboard only: the sign-in screen's focus order follows what is seen, tabs move with the arrow
 * keys, and a new phone number signs in by SMS code (the silent sign-up) without a mouse.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { expectScreen, openPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

/** What a screen reader would call the focused element, roughly. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    const labelled = el.getAttribute('aria-label');
    if (labelled) return labelled;
    const input = el as HTMLInputElement;
    if (input.labels && input.labels.length > 0) return input.labels[0]?.textContent?.trim() ?? '';
    return el.textContent?.trim() ?? '';
  });

test('sign-in by SMS code with the keyboard alone, in the order the screen reads', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  try {
    await page.goto(app.server.url);
    await expectScreen(page, 'Sign in');
    const order: string[] = [];
    for (let i = 0; i < 17; i++) {
      await page.keyboard.press('Tab');
      order.push(await focusedName(page));
    }
    expect(order).toEqual([
      'Skip to content',
      'EduPass',
      'Language: 中文',
      'SMS code',
      'Phone number',
      'Verification code',
      'Get code',
      'I have read and agree to the',
      'Terms of Service',
      'Privacy Policy',
      'Sign in',
      'Sign in with a passkey',
      'WeChat',
      'QQ',
      'Your school',
      'Login card',
      'Sign up',
    ]);

    // Arrow keys move between the sign-in methods, and back.
    await page.getByRole('tab', { name: 'SMS code' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await focusedName(page)).toBe('Password');
    await page.getByLabel('Phone, username or e-mail').waitFor();
    await page.keyboard.press('ArrowLeft');
    expect(await focusedName(page)).toBe('SMS code');

    const phone = `1570000${String(Date.now() % 10_000).padStart(4, '0')}`;
    await page.keyboard.press('Tab');
    await page.keyboard.type(phone);
    await page.keyboard.press('Tab'); // code
    await page.keyboard.press('Tab'); // Get code
    expect(await focusedName(page)).toBe('Get code');
    await page.keyboard.press('Enter');
    await page.getByText(`We sent a code to ${phone}.`).waitFor();
    // Focus moves to the code box, the button behind it counting down.
    await expect.poll(() => focusedName(page)).toBe('Verification code');
    await page.keyboard.type((await app.server.lastCode(phone)) ?? '');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^Resend in \d+ s$/);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('I have read and agree to the');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await expectScreen(page, 'Profile');
    // Focus starts on the new screen's heading.
    expect(await focusedName(page)).toBe('Profile');
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});
