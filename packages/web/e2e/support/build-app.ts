/** Builds the web client once per test file into a temporary directory (vite's JS API). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

export const WEB_ROOT = resolve(import.meta.dirname, '../..');

export const buildApp = async (): Promise<{ outDir: string; remove(): void }> => {
  const outDir = mkdtempSync(join(tmpdir(), 'edupass-web-'));
  // Vitest sets NODE_ENV=test, which would make vite and the React plugin build for development.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: WEB_ROOT,
      configFile: join(WEB_ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return { outDir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
};
