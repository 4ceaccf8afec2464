/**
 * The console's bundle carries none of the web client: both build on `@edupass/ui-kit`, and neither
 * imports the other. esbuild bundles the console's entry as vite does (the same source condition)
 * and its metafile lists every module that went in.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ESBUILD_CONDITIONS } from '../../../scripts/source-condition.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));

const bundledModules = async (entry: string) => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    absWorkingDir: root,
    bundle: true,
    write: false,
    outdir: '/tmp/edupass-console-bundle',
    format: 'esm',
    conditions: ESBUILD_CONDITIONS,
    jsx: 'automatic',
    define: { 'import.meta.env': '{}' },
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
};

describe('the console bundle', () => {
  it('holds the UI kit and not one module of the web client', async () => {
    const modules = await bundledModules('./main.tsx');
    expect(modules.some((name) => name.startsWith('packages/console/src/'))).toBe(true);
    expect(modules.some((name) => name.startsWith('packages/ui-kit/src/'))).toBe(true);
    expect(modules.filter((name) => name.startsWith('packages/web/'))).toEqual([]);
  }, 60_000);

  it('would show a web module that slipped in (the check reads real paths)', async () => {
    const modules = await bundledModules('../../web/src/i18n/kit-texts.tsx');
    expect(modules).toContain('packages/web/src/i18n/i18n.ts');
  }, 60_000);
});
