/**
 * Asking for a code: "Sending…" while it goes, focus to the code box, a countdown that survives a
 * reload, the server's refusal (with its seconds) right under the button, and a voice code offered
 * once the countdown is over. Both languages, phone and desktop; the server's clock and the page's
 * clock are moved, not waited for.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

const RESEND = 60;
let offset = 0;
const now = () => Date.now() + offset;

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp({ codeResendSeconds: RESEND, codeIpHourlyLimit: 1000, codeDailyLimit: 100 }, { now });
});
afterAll(async () => {
  await app?.close();
});

let phoneSerial = 0;
const nextPhone = () => `136${String(Date.now() + phoneSerial++).slice(-8)}`;

const outboxChannels = async (to: string) => {
  const answer = await fetch(`${app.server.url}/dev/outbox?to=${encodeURIComponent(to)}`);
  return ((await answer.json()) as { channel: string; code: string }[]).filter((r) => r.code).map((r) => r.channel);
};

/** Holds the page's next POST until `release` is called. */
const holdNextPost = async (page: Page) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  const handler = async (route: Route) => {
    if (route.request().method() !== 'POST' || held) return route.continue();
    held = true;
    await released;
    return route.continue();
  };
  await page.route('**/*', handler);
  return {
    release: async () => {
      release();
      await page.unroute('**/*', handler);
    },
  };
};

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  test.each(VIEWPORTS)(
    '$name: sending, focus, a countdown kept on reload, errors by the button, voice',
    async ({ width, height }) => {
      const tab = await openPage(app.browser, { locale, width, height });
      const { page } = tab;
      try {
        await page.clock.install();
        const phone = nextPhone();
        const openSms = async () => {
          await page.goto(app.server.url);
          await expectScreen(page, text['signIn.title']);
          await page.getByRole('tab', { name: text['signIn.tabSms'] }).click();
          await page.getByLabel(text['form.phone'], { exact: true }).fill(phone);
        };
        const codeBox = () => page.locator('input').and(page.getByLabel(text['form.code'], { exact: true }));
        const codeButton = () => page.locator('.code-button');
        await openSms();

        const hold = await holdNextPost(page);
        await page.getByRole('button', { name: text['code.send'] }).click();
        await expect.poll(() => codeButton().innerText()).toBe(text['code.sending']);
        await hold.release();
        await expect.poll(() => app.server.lastCode(phone)).toMatch(/^\d{6}$/);
        await expect.poll(() => codeBox().evaluate((input) => input === document.activeElement)).toBe(true);
        await expect.poll(() => codeButton().innerText()).toMatch(/\d+/);

        // A reload keeps the countdown, shown with the number from its first frame: the button read
        // in the very task that typed the number (never an enabled "Get code" for a number that waits).
        await openSms();
        const waiting = await page.getByLabel(text['form.phone'], { exact: true }).evaluate((input, typed) => {
          const field = input as HTMLInputElement;
          const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
          setValue?.call(field, '');
          field.dispatchEvent(new Event('input', { bubbles: true }));
          setValue?.call(field, typed);
          field.dispatchEvent(new Event('input', { bubbles: true }));
          return (document.querySelector('.code-button') as HTMLElement).innerText;
        }, phone);
        expect(waiting).toMatch(/\d+/);
        expect(Number(/\d+/.exec(waiting)?.[0])).toBeLessThanOrEqual(RESEND);

        // The page forgot (another tab, cleared storage): the server refuses, with the seconds left, under the button.
        await page.evaluate(() => sessionStorage.clear());
        await openSms();
        await page.getByRole('button', { name: text['code.send'] }).click();
        const alert = page.getByRole('alert').filter({ hasText: /\S/ });
        await alert.first().waitFor();
        const [buttonBox, alertBox] = [await codeButton().boundingBox(), await alert.first().boundingBox()];
        expect(alertBox && buttonBox && alertBox.y - (buttonBox.y + buttonBox.height)).toBeLessThan(60);
        await expect.poll(() => codeButton().innerText()).toMatch(/\d+/);
        expect(await page.getByRole('button', { name: text['code.voice'] }).count()).toBe(0);

        // Once the wait is over, a voice code is offered and sent by voice.
        offset += (RESEND + 1) * 1000;
        await page.clock.fastForward((RESEND + 1) * 1000);
        const voice = page.getByRole('button', { name: text['code.voice'] });
        await voice.waitFor();
        expect(await codeButton().innerText()).toBe(text['code.resend']);
        await voice.click();
        await expect.poll(() => outboxChannels(phone)).toContain('voice');
        await expect.poll(() => codeButton().innerText()).toMatch(/\d+/);
        expect(tab.errors).toEqual([]);
      } finally {
        await tab.close();
      }
    },
  );
});
