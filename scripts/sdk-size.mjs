/**
 * The one way EduPass sizes a browser SDK, as a site ships it: esbuild, bundled and minified ESM for
 * the browser with `process.env.NODE_ENV` set to production; sizes are gzip -9 bytes. The size tests
 * hold the budgets with it, and the benches print the same figures beside the anchors.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ESBUILD_CONDITIONS } from './source-condition.mjs';

/** esbuild's build with the shipping settings; `options` adds the entry and may override a setting. */
export const shippedBundle = (options) =>
  build({
    bundle: true,
    conditions: ESBUILD_CONDITIONS,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    ...options,
  });

export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** Minified and gzip sizes of a module whose source is `contents`, its imports resolved from `resolveDir`. */
export const sdkSize = async (contents, resolveDir) => {
  const { outputFiles } = await shippedBundle({
    stdin: { contents, resolveDir, loader: 'ts', sourcefile: 'entry.ts' },
  });
  const bytes = outputFiles[0].contents;
  return { min: bytes.length, gzip: gzipSize(bytes) };
};
