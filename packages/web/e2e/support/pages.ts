/** Browser pages for the tests: viewport, language and consent chosen up front, page errors collected. */
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';

/**
 * A step's limit (a click, a fill, a page load, a wait for a screen), for every page of a test's
 * browser context: a step takes well under a second, and a return to an application through its
 * server's code exchange at most 2.8 s with ten at once and the cores and disk busy, but on a loaded
 * CI machine (four test files and Chromium on two cores) a page has once stalled past 30 s and then
 * shown the screen. A step that fails still fails within the test's own time-out, with what the page
 * showed in the message (`shown`).
 */
export const STEP_TIMEOUT_MS = 60_000;

/** A browser context whose every page takes `STEP_TIMEOUT_MS` as its steps' limit. */
export const newTestContext = async (browser: Browser, options?: BrowserContextOptions): Promise<BrowserContext> => {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  return context;
};

export interface PageOptions {
  width?: number;
  height?: number;
  /** Sets the remembered language before the app starts. */
  locale?: 'zh-CN' | 'en';
  /** The browser's language (navigator.languages, Accept-Language). @default `locale`, else 'zh-CN' */
  browserLanguage?: string;
  /** The browser's User-Agent (an app's own browser: WeCom's `wxwork/`, DingTalk's `DingTalk`). @default Chromium's */
  userAgent?: string;
  /** The system's theme (prefers-color-scheme). @default 'light' */
  colorScheme?: 'light' | 'dark';
  /** Sets the remembered consent choice, so the banner is not shown. @default 'denied' */
  consent?: 'granted' | 'denied' | 'unset';
}

export interface TestPage {
  page: Page;
  /** Uncaught errors the page threw. */
  errors: string[];
  /** What the Content-Security-Policy refused (the browser's console messages about it). */
  cspViolations: string[];
  close(): Promise<void>;
}

export const openPage = async (browser: Browser, options: PageOptions = {}): Promise<TestPage> => {
  const context = await newTestContext(browser, {
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    reducedMotion: 'reduce',
    locale: options.browserLanguage ?? options.locale ?? 'zh-CN',
    colorScheme: options.colorScheme ?? 'light',
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  });
  const settings = { locale: options.locale, consent: options.consent ?? 'denied' };
  // Only on the first document: later navigations keep what the app itself remembered.
  await context.addInitScript((s) => {
    if (sessionStorage.getItem('e2e.init')) return;
    sessionStorage.setItem('e2e.init', '1');
    if (s.locale) localStorage.setItem('edupass.locale', s.locale);
    if (s.consent !== 'unset') localStorage.setItem('edupass.consent', s.consent);
  }, settings);
  const page = await context.newPage();
  watchPage(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return { page, errors, cspViolations, close: () => context.close() };
};

/** Runs `steps` in a page opened with `options`, and closes the page however they end. */
export const inPage = async (
  browser: Browser,
  options: PageOptions,
  steps: (tab: TestPage) => Promise<void>,
): Promise<void> => {
  const tab = await openPage(browser, options);
  try {
    await steps(tab);
  } finally {
    await tab.close();
  }
};

/** Waits for the screen whose heading is `name`. */
export const expectScreen = (page: Page, name: string | RegExp) =>
  shown(page, page.getByRole('heading', { level: 1, name }));

/** What each watched page was refused: answers of 400 and up (with their body's start), requests never answered. */
const refusals = new WeakMap<Page, Promise<string>[]>();

/** Keeps what `page` is refused from now on, for `shown` to tell when a wait times out. */
export const watchPage = (page: Page): void => {
  const refused: Promise<string>[] = [];
  refusals.set(page, refused);
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const what = `${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`;
    refused.push(
      response.text().then(
        (body) => `${what} ${body.slice(0, 160)}`,
        () => what,
      ),
    );
  });
  page.on('requestfailed', (request) => {
    const what = `${request.method()} ${new URL(request.url()).pathname}: ${request.failure()?.errorText}`;
    refused.push(Promise.resolve(what));
  });
};

/**
 * Waits for `locator` to show. On time-out the error says what the page showed instead and what it was
 * refused (watchPage), so a failure on a loaded machine explains itself rather than only naming what was missing.
 */
export const shown = async (page: Page, locator: Locator, timeout = STEP_TIMEOUT_MS): Promise<void> => {
  try {
    await locator.waitFor({ timeout });
  } catch (error) {
    const text = await page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch(() => '(unreadable)');
    // A body that never ends (a stream) must not hold the failure back.
    const unread = new Promise<string[]>((done) => setTimeout(() => done(['(answers not read within 5 s)']), 5_000));
    const refused = await Promise.race([Promise.all(refusals.get(page) ?? []), unread]);
    const lines = [
      (error as Error).message,
      `the page showed: ${text.replace(/\s+/g, ' ').slice(0, 600)}`,
      `refused: ${refused.join('\n  ') || 'nothing'}`,
    ];
    throw new Error(lines.join('\n'), { cause: error });
  }
};
