/**
 * Builds the web client and the operator console (console.html) into one directory, as
 * scripts/build.mjs puts them side by side for the server (vite's JS API): once per run when the
 * run's global setup provides a directory (the first file to ask builds, the others wait for it),
 * else once per test file into a temporary one.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { provided } from '@edupass/test-kit/browser';
import { build } from 'vite';
import { vi } from 'vitest';

export const WEB_ROOT = resolve(import.meta.dirname, '../..');
export const CONSOLE_ROOT = resolve(import.meta.dirname, '../../../console');

const buildInto = (root: string, outDir: string, emptyOutDir: boolean) =>
  build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir },
  });

const buildBoth = async (outDir: string) => {
  // Vitest sets NODE_ENV=test, which would make vite and the React plugin build for development.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildInto(WEB_ROOT, outDir, true);
    await buildInto(CONSOLE_ROOT, outDir, false);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
};

/** The run's one build in `runDir`: `claimed` (mkdir, atomic) says who builds; `done` or `failed` ends the wait. */
const sharedBuild = async (runDir: string): Promise<string> => {
  const outDir = join(runDir, 'out');
  const done = join(runDir, 'done');
  const failed = join(runDir, 'failed');
  let builder = true;
  try {
    mkdirSync(join(runDir, 'claimed'));
  } catch {
    builder = false;
  }
  if (builder) {
    try {
      await buildBoth(outDir);
      writeFileSync(done, '');
    } catch (error) {
      writeFileSync(failed, String(error));
      throw error;
    }
  } else {
    await vi.waitFor(
      () => {
        if (!existsSync(done) && !existsSync(failed)) throw new Error('the web client is still being built');
      },
      { timeout: 300_000, interval: 200 },
    );
    if (existsSync(failed))
      throw new Error(`the run's build of the web client failed: ${readFileSync(failed, 'utf8')}`);
  }
  return outDir;
};

/** The built web client and console; `remove` removes a file's own build (the run's is removed by its setup). */
export const buildApp = async (): Promise<{ outDir: string; remove(): void }> => {
  const runDir = provided('webBuildDir');
  if (runDir !== undefined) return { outDir: await sharedBuild(runDir), remove: () => {} };
  const outDir = mkdtempSync(join(tmpdir(), 'edupass-web-'));
  await buildBoth(outDir);
  return { outDir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
};
