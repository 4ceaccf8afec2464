/**
 * The first screen as a new visitor finds it, in both languages on a phone (390×844) and a desktop
 * (1280×800): the site's configured name and logo in the header and the title; the language of the
 * browser when none is remembered (a remembered one wins); the consent banner covering no button,
 * link or field (hit testing at each one's centre); English without Chinese punctuation; the light and
 * dark themes following the system, axe clean in both; and the JavaScript the first screen loads before
 * any input, as the server sends it, within 80 KB in either language (bench/web measures it by file).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

const SITE = { name: 'Bright School', logoUrl: 'https://cdn.bright.example/logo.svg' };
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32" fill="#c2410c"/></svg>';
const BROWSER_LANGUAGE = { 'zh-CN': 'zh-CN', en: 'en-US' } as const;

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp({ site: SITE });
});
afterAll(async () => {
  await app?.close();
});

const CASES = LOCALES.flatMap(({ locale, text }) => VIEWPORTS.map((viewport) => ({ locale, text, viewport })));

/** A new visitor: nothing remembered, the browser set to `locale`, the consent banner up. */
const visit = async (
  locale: 'zh-CN' | 'en',
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark' = 'light',
) => {
  const tab = await openPage(app.browser, {
    browserLanguage: BROWSER_LANGUAGE[locale],
    width: viewport.width,
    height: viewport.height,
    consent: 'unset',
    colorScheme,
  });
  await tab.page.route(`${SITE.logoUrl}*`, (route) =>
    route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO }),
  );
  await tab.page.goto(app.server.url);
  return tab;
};

/** What the visitor can act on: every button, link and field of the header, the screen and the banner. */
const ACTIONS = 'header :is(a, button), main :is(a, button, input, select, textarea), .consent button';

/**
 * Each action scrolled into view as little as needed, then the element at its centre: the action
 * itself (or what it holds) when nothing covers it. Answers the ones that are covered, and the banner
 * boxes that overlap an action's box anywhere on the page.
 */
const coveredActions = (page: Page) =>
  page.evaluate((selector) => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || (el as HTMLInputElement).type || '').trim()}"`;
    const banner = document.querySelector('.consent')?.getBoundingClientRect();
    const covered: string[] = [];
    const actions = [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length > 0);
    for (const el of actions) {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (
        !hit ||
        !(el === hit || el.contains(hit) || (el instanceof HTMLInputElement && el.labels?.[0]?.contains(hit)))
      )
        covered.push(`${name(el)} is under ${hit ? name(hit) : 'nothing'}`);
      const bannerNow = document.querySelector('.consent')?.getBoundingClientRect();
      if (bannerNow && !el.closest('.consent')) {
        const overlaps =
          box.left < bannerNow.right &&
          bannerNow.left < box.right &&
          box.top < bannerNow.bottom &&
          bannerNow.top < box.bottom;
        if (overlaps) covered.push(`${name(el)} overlaps the banner`);
      }
    }
    return { covered, count: actions.length, banner: Boolean(banner) };
  }, ACTIONS);

describe.each(CASES)('$locale at $viewport.width×$viewport.height', ({ locale, text, viewport }) => {
  test("the browser's language, the site's name and logo in the header and the title", async () => {
    const tab = await visit(locale, viewport);
    const { page } = tab;
    try {
      await expectScreen(page, text['signIn.title']);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
      const brand = page.locator('header a.brand');
      expect((await brand.innerText()).trim()).toBe(SITE.name);
      await expect.poll(() => page.title()).toBe(text['app.title'].replace('{site}', SITE.name));
      const logo = brand.locator('img.logo');
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
      expect(await logo.getAttribute('alt')).toBe('');
      // The logo is as tall as the name's line, whatever the image's own size.
      expect((await logo.boundingBox())?.height).toBe(32);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test('with the consent banner shown, every button, link and field of the first screen can be clicked', async () => {
    const tab = await visit(locale, viewport);
    const { page } = tab;
    try {
      await expectScreen(page, text['signIn.title']);
      await page.locator('.consent').waitFor();
      // The agreements box is filled in from the server: its links are actions too.
      await page.locator('main .agree a').first().waitFor();
      const { covered, count, banner } = await coveredActions(page);
      expect(banner).toBe(true);
      expect(count).toBeGreaterThanOrEqual(10);
      expect(covered).toEqual([]);
      // And as a visitor would: the browser's own hit test before a click, on the buttons the banner hid.
      for (const name of [text['signIn.wechat'], text['signIn.qq'], text['signIn.submit'], text['consent.deny']]) {
        await page.getByRole('button', { name, exact: true }).click({ trial: true });
      }
      await page.getByRole('link', { name: text['signIn.toSignUp'], exact: true }).click({ trial: true });
    } finally {
      await tab.close();
    }
  });

  test('light and dark follow the system, with no serious axe violation in either', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const tab = await visit(locale, viewport, scheme);
      const { page } = tab;
      try {
        await expectScreen(page, text['signIn.title']);
        await page.locator('.consent').waitFor();
        await page.locator('main .agree a').first().waitFor();
        const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        const [r = 0, g = 0, b = 0] = (background.match(/\d+/g) ?? []).map(Number);
        const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        if (scheme === 'dark') expect(luminance, background).toBeLessThan(0.2);
        else expect(luminance, background).toBeGreaterThan(0.8);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await tab.close();
      }
    }
  });
});

describe('the language', () => {
  test('a remembered choice wins over the browser’s language', async () => {
    const tab = await openPage(app.browser, { locale: 'zh-CN', browserLanguage: 'en-US' });
    try {
      await tab.page.goto(app.server.url);
      await expectScreen(tab.page, LOCALES[0].text['signIn.title']);
      expect(await tab.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    } finally {
      await tab.close();
    }
  });

  test('the English first screen shows no Chinese but the switch to Chinese itself', async () => {
    const tab = await visit('en', { width: 390, height: 844 });
    const { page } = tab;
    try {
      await expectScreen(page, 'Sign in');
      await page.locator('main .agree a').first().waitFor();
      const shown = await page.evaluate(() => {
        const copy = document.body.cloneNode(true) as HTMLElement;
        for (const el of copy.querySelectorAll('[lang="zh-CN"], noscript')) el.remove();
        return copy.innerText;
      });
      expect(shown).not.toMatch(/[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/u);
      const agreement = (await page.locator('main .agree').innerText()).replace(/\s+/g, ' ');
      expect(agreement).toContain('I have read and agree to the Terms of Service and the Privacy Policy');
    } finally {
      await tab.close();
    }
  });
});

describe('what the first screen costs to load', () => {
  /** The first screen's JavaScript transferred, its target (the sign-in experience: ≤ 80 KB). */
  const FIRST_SCREEN_JS_BYTES = 80 * 1024;

  test.each(LOCALES)(
    '$locale: at most 80 KB of JavaScript before any input, compressed as sent',
    async ({ locale, text }) => {
      const tab = await openPage(app.browser, { browserLanguage: BROWSER_LANGUAGE[locale], consent: 'unset' });
      const { page } = tab;
      const sent: { path: string; bytes: number; encoding: string }[] = [];
      const reads: Promise<void>[] = [];
      page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return;
        reads.push(
          (async () => {
            const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
            sent.push({
              path: new URL(request.url()).pathname,
              bytes: sizes.responseBodySize,
              encoding: (await response?.headerValue('content-encoding')) ?? 'identity',
            });
          })(),
        );
      });
      try {
        await page.goto(app.server.url, { waitUntil: 'networkidle' });
        await expectScreen(page, text['signIn.title']);
        await page.locator('main .agree a').first().waitFor();
        await Promise.all(reads);
        // What a failure says: each file, and where to look (bench/web/README.md: a source map of the
        // entry, bytes per source, shows what weighs on it).
        const report = [
          ...sent.map((file) => `${file.path} ${file.bytes} B ${file.encoding}`),
          'see bench/web/README.md for what the first screen loads and how to find what weighs on it',
        ].join('\n');
        // The entry and the language's first part, nothing else (the other screens' text waits for input).
        expect(sent.length, report).toBe(2);
        expect(
          sent.map((file) => file.encoding),
          report,
        ).toEqual(['br', 'br']);
        expect(
          sent.every((file) => file.bytes > 1000),
          report,
        ).toBe(true);
        const total = sent.reduce((sum, file) => sum + file.bytes, 0);
        expect(total, report).toBeLessThanOrEqual(FIRST_SCREEN_JS_BYTES);
      } finally {
        await tab.close();
      }
    },
  );
});
