/** Builds the web client once per test file into a temporary directory (vite's JS API). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

export const WEB_ROOT = resolve(import.meta.dirname, '../..');

export const buildApp = async (): Promise<{ outDir: string; remove(): void }> => {
  const outDir = mkdtempSync(join(tmpdir(), 'edupass-web-'));
  await build({
    root: WEB_ROOT,
    configFile: join(WEB_ROOT, 'vite.config.ts'),
    mode: 'production',
    // Vitest sets NODE_ENV=test, which would otherwise ship React's development build.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  return { outDir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
};
