/** The real server serving a fresh build of the web client, and a browser to drive it. */

import { type BrowserOptions, launchBrowser } from '@edupass/test-kit/browser';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import type { BuildOptions, Config } from '@edupass/test-kit/server';
import { stepUpClock } from '@edupass/test-kit/step-up-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from './build-app.ts';

export interface AppUnderTest {
  server: TestServer;
  browser: Browser;
  close(): Promise<void>;
}

/** `overrides` and `options` go to the test server (a setting, the clock), `browserOptions` to launchBrowser. */
export const startApp = async (
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
  browserOptions: BrowserOptions = {},
): Promise<AppUnderTest> => {
  const build = await buildApp();
  const [server, browser] = await Promise.all([
    startTestServer({ webRoot: build.outDir, ...overrides }, options),
    launchBrowser(browserOptions),
  ]);
  // OAuth redirects must point at PUBLIC_URL, known only once the server listens (as in oauth-flow.ts).
  server.config.publicUrl = server.url;
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
      build.remove();
    },
  };
};

/**
 * The app for the test file (or describe block) that calls this: started in its beforeAll, closed in
 * its afterAll; what it returns stands for the app once started.
 */
export const withApp = (overrides: Partial<Config> = {}, options: BuildOptions = {}): AppUnderTest => {
  let running: AppUnderTest | undefined;
  const started = () => {
    if (!running) throw new Error('the app is used before its beforeAll started it');
    return running;
  };
  beforeAll(async () => {
    running = await startApp(overrides, options);
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    close: () => started().close(),
  };
};

/** The app with a step-up window of `window` seconds, on a server clock that `later()` moves past it. */
export const withStepUpApp = (window: number, overrides: Partial<Config> = {}) => {
  const { now, later } = stepUpClock(window);
  return { app: withApp({ stepUpSeconds: window, ...overrides }, { now }), later };
};
