/**
 * The SQLite driver's native addon survives the garbage collector on the Node it runs on. Compiled
 * against the headers of Node 24.19 or later, better-sqlite3 12 aborts the process when a statement is
 * finalized outside a JavaScript context (nodejs/node#65446): a server on the embedded database would
 * die at a random request. deploy/addon-headers.sh gives the headers it is compiled against for Node
 * 24 (.ci/run and deploy/Dockerfile use it); this test runs on the Node the suite runs on.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const driver = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
const probe = join(import.meta.dirname, '..', '..', 'test-kit', 'src', 'sqlite-gc-probe.cjs');

it(`statements prepared and dropped between I/O callbacks are collected without aborting Node ${process.version}`, async () => {
  // A small young generation: the collector runs often, at the points a busy server's would.
  const run = promisify(execFile)(process.execPath, ['--max-semi-space-size=1', probe, driver], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const outcome = await run.then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; signal?: string; stdout?: string; stderr?: string }) => ({
      code: error.code ?? error.signal,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  expect(outcome.stderr).not.toMatch(/Assertion failed/);
  expect(outcome).toMatchObject({ code: 0, stdout: expect.stringMatching(/prepared 200000 statements/) });
}, 120_000);
