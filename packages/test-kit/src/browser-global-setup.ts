/**
 * Vitest global setup of the run (the root config's, so it runs once whichever projects run, and
 * every project inherits what it provides): one Chromium for the whole run (behind Playwright's
 * server in a process of its own, chromium-server.mjs), which every test file's `launchBrowser()`
 * connects to (each file still gets its own contexts and pages), and one directory in which the
 * first file that needs the web client and the console builds them for all
 * (web/e2e/support/build-app.ts). Both are handed to the workers with `provide`.
 *
 * EDUPASS_TEST_WEB_BUILD names a folder where both are already built from these sources (.ci/run
 * passes what `npm start` built into packages/server/web): the run takes a copy of it as its build
 * instead of building them again.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** EDUPASS_TEST_WEB_BUILD, once it is seen to hold both pages. */
const prebuiltWebClient = (): string | undefined => {
  const prebuilt = process.env.EDUPASS_TEST_WEB_BUILD;
  if (!prebuilt) return undefined;
  for (const page of ['index.html', 'console.html']) {
    if (!existsSync(join(prebuilt, page))) {
      throw new Error(
        `EDUPASS_TEST_WEB_BUILD=${prebuilt} holds no ${page}: build it (npm run build) or leave the variable unset`,
      );
    }
  }
  return prebuilt;
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prebuilt = prebuiltWebClient();
  const buildDir = mkdtempSync(join(tmpdir(), 'edupass-web-run-'));
  if (prebuilt) {
    // The run's build, already done (build-app.ts: `claimed`, then `done`).
    cpSync(prebuilt, join(buildDir, 'out'), { recursive: true });
    mkdirSync(join(buildDir, 'claimed'));
    writeFileSync(join(buildDir, 'done'), '');
  }
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
