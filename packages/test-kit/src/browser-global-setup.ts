/**
 * Vitest global setup of the projects with browser tests: one Chromium for the whole run, which every
 * test file's `launchBrowser()` connects to (each file still gets its own contexts and pages), and
 * one directory in which the first file that needs the web client and the console builds them for
 * all (web/e2e/support/build-app.ts). Both are handed to the workers with `provide`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Playwright's WebSocket address of the run's Chromium. */
    chromiumEndpoint?: string;
    /** Where the run's one build of the web client and the console goes. */
    webBuildDir?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const buildDir = mkdtempSync(join(tmpdir(), 'edupass-web-run-'));
  project.provide('chromiumEndpoint', server.wsEndpoint());
  project.provide('webBuildDir', buildDir);
  return async () => {
    await server.close();
    rmSync(buildDir, { recursive: true, force: true });
  };
}
