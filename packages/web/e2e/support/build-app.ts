/**
 * Builds the web client and the operator console (console.html) once per test file into one temporary
 * directory, as scripts/build.mjs puts them side by side for the server (vite's JS API).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

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

export const buildApp = async (): Promise<{ outDir: string; remove(): void }> => {
  const outDir = mkdtempSync(join(tmpdir(), 'edupass-web-'));
  // Vitest sets NODE_ENV=test, which would make vite and the React plugin build for development.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildInto(WEB_ROOT, outDir, true);
    await buildInto(CONSOLE_ROOT, outDir, false);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return { outDir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
};
