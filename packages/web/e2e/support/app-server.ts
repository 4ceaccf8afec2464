/** The real server serving a fresh build of the web client, and a browser to drive it. */

import { launchBrowser } from '@edupass/test-kit/browser';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import type { BuildOptions, Config } from '@edupass/test-kit/server';
import type { Browser } from 'playwright-core';
import { buildApp } from './build-app.ts';

export interface AppUnderTest {
  server: TestServer;
  browser: Browser;
  close(): Promise<void>;
}

/** `overrides` and `options` go to the test server (a setting, the clock). */
export const startApp = async (overrides: Partial<Config> = {}, options: BuildOptions = {}): Promise<AppUnderTest> => {
  const build = await buildApp();
  const [server, browser] = await Promise.all([
    startTestServer({ webRoot: build.outDir, ...overrides }, options),
    launchBrowser(),
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
