/**
 * When the server cannot be reached, the screens say so — "cannot reach the server, check your
 * connection", or that it took too long — with a retry that loads again what failed, and the captcha
 * is not blamed: the captcha start, the agreements on a cold load, a code send and the sign-in call.
 * The API is stopped (requests aborted) or hung (never answered) with Playwright's route interception,
 * then let through again for the retry. Both languages, a phone and a desktop.
 */
import { REQUEST_TIMEOUT_MS } from '@edupass/protocol';
import { PASSWORD, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import en from '../src/i18n/locales/en.ts';
import enMore from '../src/i18n/locales/en-more.ts';
import zhCN from '../src/i18n/locales/zh-CN.ts';
import zhCNMore from '../src/i18n/locales/zh-CN-more.ts';
import { SLOW_MS } from '../src/ui/slow-wait.ts';
import { inputLabelled, newCodeFor, phoneNumbers } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const nextPhone = phoneNumbers('1573');
/** Each language's text (both parts) and errors. */
const LANGUAGES = {
  'zh-CN': { text: { ...zhCNMore, ...zhCN.text }, errors: zhCN.errors },
  en: { text: { ...enMore, ...en.text }, errors: en.errors },
} as const;
type Language = keyof typeof LANGUAGES;

/** Every call of the API: the account routes and the captcha's. */
const isApi = (url: URL) => url.pathname.startsWith('/tiger/') || url.pathname.startsWith('/captcha/');
const isPath = (end: string) => (url: URL) => url.pathname.endsWith(end);

const [PHONE, DESKTOP] = VIEWPORTS as [Viewport, Viewport];
type Viewport = { name: string; width: number; height: number };

const CASES: { locale: Language; viewport: Viewport }[] = [
  { locale: 'zh-CN', viewport: PHONE },
  { locale: 'en', viewport: DESKTOP },
  { locale: 'zh-CN', viewport: DESKTOP },
  { locale: 'en', viewport: PHONE },
];

const open = (locale: Language, viewport: Viewport = DESKTOP) =>
  openPage(app.browser, { locale, width: viewport.width, height: viewport.height });

/** The alert saying `message`, and its retry button. */
const trouble = (page: Page, message: string, retry: string) => {
  const alert = page.getByRole('alert').filter({ hasText: message });
  return { alert, retry: alert.getByRole('button', { name: retry }) };
};

const fillPhone = async (tab: TestPage, locale: Language, phone: string) => {
  const { text } = LANGUAGES[locale];
  await expectScreen(tab.page, text['signIn.title']);
  await inputLabelled(tab, text['form.phone']).fill(phone);
};

for (const { locale, viewport } of CASES) {
  test(`the captcha start with the API down says the server cannot be reached, and Try again sends the code (${locale}, ${viewport.name})`, async () => {
    const { text, errors } = LANGUAGES[locale];
    const tab = await open(locale, viewport);
    const { page } = tab;
    const phone = nextPhone();
    try {
      await page.goto(app.server.url);
      await fillPhone(tab, locale, phone);
      await page.route(isApi, (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: text['code.send'] }).click();
      const shown = trouble(page, errors.REQUEST_ERROR, text['trouble.retry']);
      await shown.retry.waitFor({ timeout: 20_000 });
      expect(await page.getByText(errors.CAPTCHA_ERROR).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await keepScreenshot(page, {
        path: `${import.meta.dirname}/screenshots/trouble-code.${locale}.${viewport.width}.png`,
      });

      await page.unroute(isApi);
      await shown.retry.click();
      await page.getByText(text['code.sent'].replace('{to}', phone)).waitFor({ timeout: 20_000 });
      expect(await newCodeFor(app, phone)).toMatch(/^\d{6}$/);
      await shown.alert.waitFor({ state: 'detached' });
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}

test('an API that never answers the captcha start: after the request time-out, a message saying so and a retry that works', async () => {
  const { text, errors } = LANGUAGES['zh-CN'];
  const tab = await open('zh-CN', PHONE);
  const { page } = tab;
  const phone = nextPhone();
  const held: Route[] = [];
  const rule = isPath('/captcha/rule/v3');
  try {
    // The page's clock, so the waits of the slow notice and of the request time-out pass at once.
    await page.clock.install();
    await page.goto(app.server.url);
    await fillPhone(tab, 'zh-CN', phone);
    await page.route(rule, (route) => {
      held.push(route);
    });
    await page.getByRole('button', { name: text['code.send'] }).click();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    // Some seconds in, the page says the server is slow and that it is still waiting…
    const slow = page.getByRole('status').filter({ hasText: text['form.slow'] });
    await page.clock.fastForward(SLOW_MS);
    await slow.waitFor();
    // …and after the request time-out (the spec's 20 s), that it took too long.
    const shown = trouble(page, errors.REQUEST_TIMEOUT, text['trouble.retry']);
    await page.clock.fastForward(REQUEST_TIMEOUT_MS);
    await shown.retry.waitFor({ timeout: 60_000 });
    expect(await slow.count()).toBe(0);
    expect(await page.getByText(errors.CAPTCHA_ERROR).count()).toBe(0);
    await page.unroute(rule);
    await shown.retry.click();
    await page.getByText(text['code.sent'].replace('{to}', phone)).waitFor({ timeout: 20_000 });
  } finally {
    await tab.close();
  }
}, 120_000);

for (const { locale, viewport } of CASES.slice(0, 2)) {
  test(`a cold load with the API down says the agreements could not load, and Try again loads them (${locale}, ${viewport.name})`, async () => {
    const { text, errors } = LANGUAGES[locale];
    const tab = await open(locale, viewport);
    const { page } = tab;
    try {
      await page.route(isApi, (route) => route.abort('internetdisconnected'));
      await page.goto(app.server.url);
      await expectScreen(page, text['signIn.title']);
      const shown = trouble(page, text['agree.loadFailed'], text['trouble.retry']);
      await shown.alert.filter({ hasText: errors.REQUEST_ERROR }).waitFor({ timeout: 20_000 });
      expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, {
        path: `${import.meta.dirname}/screenshots/trouble-agreements.${locale}.${viewport.width}.png`,
      });

      await page.unroute(isApi);
      await shown.retry.click();
      await shown.alert.waitFor({ state: 'detached', timeout: 20_000 });
      // The agreements are named after "I have read and agree to" again.
      await page.locator('.agree a').first().waitFor();
      expect(await page.locator('.agree a').count()).toBeGreaterThan(0);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}

test('a code send that cannot reach the server (the captcha passed) is retried by Try again', async () => {
  const { text, errors } = LANGUAGES.en;
  const tab = await open('en');
  const { page } = tab;
  const phone = nextPhone();
  const send = isPath('/captcha/login/silence');
  try {
    await page.goto(app.server.url);
    await fillPhone(tab, 'en', phone);
    await page.route(send, (route) => route.abort('connectionreset'));
    await page.getByRole('button', { name: text['code.send'] }).click();
    const shown = trouble(page, errors.REQUEST_ERROR, text['trouble.retry']);
    await shown.retry.waitFor({ timeout: 20_000 });
    await page.unroute(send);
    await shown.retry.click();
    await page.getByText(text['code.sent'].replace('{to}', phone)).waitFor({ timeout: 20_000 });
  } finally {
    await tab.close();
  }
});

test('a sign-in call that cannot reach the server offers Try again, which signs in once the API is back (zh-CN, phone)', async () => {
  const { text, errors } = LANGUAGES['zh-CN'];
  const tab = await open('zh-CN', PHONE);
  const { page } = tab;
  const phone = nextPhone();
  const signIn = isPath('/phone/login/silence');
  try {
    await page.goto(app.server.url);
    await fillPhone(tab, 'zh-CN', phone);
    await page.getByRole('button', { name: text['code.send'] }).click();
    await inputLabelled(tab, text['form.code']).fill(await newCodeFor(app, phone));
    await page.getByLabel(text['agree.prefix']).check();
    await page.route(signIn, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
    const shown = trouble(page, errors.REQUEST_ERROR, text['trouble.retry']);
    await shown.retry.waitFor({ timeout: 20_000 });
    await page.unroute(signIn);
    await shown.retry.click();
    await expectScreen(page, text['profile.title']);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});

test('a sign-in the server is slow to answer says it is still waiting, then signs in (en, desktop)', async () => {
  const { text } = LANGUAGES.en;
  const tab = await open('en', DESKTOP);
  const { page } = tab;
  const phone = nextPhone();
  const signIn = isPath('/phone/login/silence');
  const held: Route[] = [];
  try {
    // The page's clock, so the wait before the slow notice passes at once.
    await page.clock.install();
    await page.goto(app.server.url);
    await fillPhone(tab, 'en', phone);
    await page.getByRole('button', { name: text['code.send'] }).click();
    await inputLabelled(tab, text['form.code']).fill(await newCodeFor(app, phone));
    await page.getByLabel(text['agree.prefix']).check();
    await page.route(signIn, (route) => {
      held.push(route);
    });
    await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const slow = page.getByRole('status').filter({ hasText: text['form.slow'] });
    await page.clock.fastForward(SLOW_MS);
    await slow.waitFor();
    // The server answers after all, within the time-out: the sign-in goes through.
    await held[0]?.continue();
    await expectScreen(page, text['profile.title']);
    expect(await slow.count()).toBe(0);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});

test('a server error page in front of the captcha is the server failing, not the captcha', async () => {
  const { text, errors } = LANGUAGES.en;
  const tab = await open('en');
  const { page } = tab;
  const rule = isPath('/captcha/rule/v3');
  try {
    await page.goto(app.server.url);
    await fillPhone(tab, 'en', nextPhone());
    await page.route(rule, (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html>bad gateway</html>' }),
    );
    await page.getByRole('button', { name: text['code.send'] }).click();
    await trouble(page, errors.SERVER_ERROR, text['trouble.retry']).retry.waitFor({ timeout: 20_000 });
    expect(await page.getByText(errors.CAPTCHA_ERROR).count()).toBe(0);
  } finally {
    await tab.close();
  }
});

/** Every script the page has not loaded yet: here, the captcha SDK's chunk and the agreement sheet's. */
const SCRIPTS = '**/assets/*.js';

test('the captcha code that cannot be fetched says the connection failed; Try again fetches it afresh (en, phone)', async () => {
  const { text, errors } = LANGUAGES.en;
  const tab = await open('en', PHONE);
  const { page } = tab;
  const phone = nextPhone();
  try {
    await page.goto(app.server.url);
    await fillPhone(tab, 'en', phone);
    await page.route(SCRIPTS, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: text['code.send'] }).click();
    const shown = trouble(page, errors.REQUEST_ERROR, text['trouble.retry']);
    await shown.retry.waitFor({ timeout: 20_000 });
    expect(await page.getByText(errors.CAPTCHA_ERROR).count()).toBe(0);
    await page.unroute(SCRIPTS);
    await shown.retry.click();
    await page.getByText(text['code.sent'].replace('{to}', phone)).waitFor({ timeout: 20_000 });
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});

test("an agreement's text that cannot be fetched is said beside the link, and Try again opens it (zh-CN, desktop)", async () => {
  const { text, errors } = LANGUAGES['zh-CN'];
  const tab = await open('zh-CN', DESKTOP);
  const { page } = tab;
  try {
    await page.goto(app.server.url);
    await expectScreen(page, text['signIn.title']);
    const terms = page.getByRole('link', { name: '《用户协议》', exact: true });
    await terms.waitFor();
    await page.route(SCRIPTS, (route) => route.abort('connectionrefused'));
    await terms.click();
    const shown = trouble(page, errors.REQUEST_ERROR, text['trouble.retry']);
    await shown.retry.waitFor({ timeout: 20_000 });
    await page.unroute(SCRIPTS);
    await shown.retry.click();
    await page.getByRole('dialog').waitFor({ timeout: 20_000 });
    // The page is still there: a failed chunk never takes the whole screen down.
    await expectScreen(page, text['signIn.title']);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});

test('a crowd signing in: a password sign-in the server asks to wait for (503 E_10, Retry-After) is sent again by itself, one at a time, with a calm word (zh-CN and en, phone)', async () => {
  for (const locale of ['zh-CN', 'en'] as const) {
    const { text } = LANGUAGES[locale];
    const account = await signUp(app.server);
    const tab = await open(locale, PHONE);
    const { page } = tab;
    const signIn = (url: URL) => /\/accounts\/login(\/security)?$/.test(url.pathname);
    const sent: number[] = [];
    let inFlight = 0;
    let mostAtOnce = 0;
    try {
      // The server's own answer while its queue of password checks is full (hash-turns.ts), twice.
      await page.route(signIn, async (route) => {
        sent.push(Date.now());
        inFlight++;
        mostAtOnce = Math.max(mostAtOnce, inFlight);
        try {
          if (sent.length <= 2) {
            await route.fulfill({
              status: 503,
              headers: { 'retry-after': '1' },
              contentType: 'application/json',
              body: JSON.stringify({
                error_code: 'E_10',
                error_number: 68,
                error_category: 'server',
                error_message: 'Many people are signing in right now. Try again in a moment.',
                log_uuid: '00000000-0000-4000-8000-000000000000',
                retry_after: 1,
              }),
            });
          } else await route.continue();
        } finally {
          inFlight--;
        }
      });
      await page.goto(app.server.url);
      await expectScreen(page, text['signIn.title']);
      await page.getByRole('tab', { name: text['signIn.tabPassword'] }).click();
      await inputLabelled(tab, text['form.identity']).fill(account.phone);
      await inputLabelled(tab, text['form.password']).fill(PASSWORD);
      await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
      await page.getByRole('status').filter({ hasText: text['signIn.crowded'] }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // No tap needed: the third try signs in (then the agreements in effect, as every sign-in here).
      await expectScreen(page, text['gate.title']);
      await page.getByRole('button', { name: text['gate.submit'] }).click();
      await expectScreen(page, text['profile.title']);
      expect(sent).toHaveLength(3);
      expect(mostAtOnce).toBe(1);
      // Each try waited at least the second the server asked for.
      expect((sent[1] ?? 0) - (sent[0] ?? 0)).toBeGreaterThanOrEqual(900);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }
});
