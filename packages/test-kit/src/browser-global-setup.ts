/**
 * Vitest global setup of the run (the root config's, so it runs once whichever projects run, and
 * every project inherits what it provides): one Chromium for the whole run (behind Playwright's
 * server in a process of its own, chromium-server.mjs), which every test file's `launchBrowser()`
 * connects to (each file still gets its own contexts and pages), and one directory in which the
 * first file that needs the web client and the console builds them for all
 * (web/e2e/support/build-app.ts). Both are handed to the workers with `provide`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
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
  const server = spawn(
    process.execPath,
    [join(import.meta.dirname, 'chromium-server.mjs'), CHROMIUM_PATH, JSON.stringify(CHROMIUM_ARGS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: server.stdout });
  const [endpoint] = (await Promise.race([
    once(lines, 'line'),
    once(server, 'exit').then(([code]) => {
      throw new Error(`the run's Chromium did not start (exit ${code})`);
    }),
  ])) as [string];
  const buildDir = mkdtempSync(join(tmpdir(), 'edupass-web-run-'));
  project.provide('chromiumEndpoint', endpoint);
  project.provide('webBuildDir', buildDir);
  return async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    rmSync(buildDir, { recursive: true, force: true });
  };
}
