/**
 * Real-browser support for tests: Debian's Chromium through playwright-core (no browser download),
 * and esbuild to bundle an SDK entry the way a site would ship it.
 */
import { existsSync } from 'node:fs';
import { build } from 'esbuild';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { SCREENSHOTS_TAKEN } from '../../../scripts/screenshot-gallery.mjs';
import { ESBUILD_CONDITIONS } from '../../../scripts/source-condition.mjs';

/**
 * The browser the tests drive: Debian's Chromium, as its headless shell (package
 * chromium-headless-shell, the same build of Chromium without the desktop browser around it: the
 * headless mode Playwright itself uses) when installed, else the desktop Chromium at
 * /usr/bin/chromium, which `CHROMIUM_PATH=/usr/bin/chromium` chooses as well. The shell takes about
 * half the CPU of the desktop browser for the same page (no browser window to composite, no desktop
 * features), and the browser tests are most of the suite's CPU.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A value the run's global setup provided (browser-global-setup.ts), if this runs under it. */
export const provided = <K extends 'chromiumEndpoint' | 'webBuildDir'>(key: K): string | undefined => {
  try {
    return inject(key);
  } catch {
    return undefined; // not in a Vitest worker
  }
};

export interface BrowserOptions {
  /**
   * A Chromium of the file's own even when the run has one: for a file that copies or pastes. The
   * system clipboard is one per browser, which every context of every file running at the same time
   * writes to.
   */
  own?: boolean;
}

/**
 * A browser: a connection to the run's one Chromium when the global setup started it (closing it
 * closes this file's contexts only), else (or when asked) a Chromium of its own.
 */
export const launchBrowser = ({ own = false }: BrowserOptions = {}): Promise<Browser> => {
  const endpoint = own ? undefined : provided('chromiumEndpoint');
  if (endpoint !== undefined) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
};

/**
 * A screenshot of `target` written to `options.path`, unless this run takes none. Screenshots are for
 * people: the stories keep one of each screen they walk, under the package's e2e/screenshots/, and
 * `npm test` gathers them into one page. A run nobody looks at them after (CI,
 * `EDUPASS_TEST_SCREENSHOTS=0`) takes none: a full-page PNG cost Chromium about 0.18 s of CPU, a
 * third of screens.test.ts's. A screenshot a test reads its pixels from is taken with `screenshot()`
 * itself, always.
 */
export const keepScreenshot = async (
  target: Page | Locator,
  options: Parameters<Page['screenshot']>[0] & { path: string },
): Promise<void> => {
  if (SCREENSHOTS_TAKEN) await target.screenshot(options);
};

/** Bundles a TypeScript entry (or inline source) into one browser script (IIFE exposing `globalName`). */
export const bundleForBrowser = async (entry: string, globalName: string): Promise<string> => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    conditions: ESBUILD_CONDITIONS,
    format: 'iife',
    globalName,
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error(`esbuild produced nothing for ${entry}`);
  return file.text;
};
