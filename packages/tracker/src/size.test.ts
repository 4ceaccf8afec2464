import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

// The budget of the issue: every feature in ≤ 4 KB gzip, bundled as a site would (minified ESM).
it('bundles to at most 4 KB gzip', async () => {
  const result = await build({
    entryPoints: [new URL('./index.ts', import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]?.contents ?? new Uint8Array();
  expect(gzipSync(bytes, { level: 9 }).length).toBeLessThanOrEqual(4096);
});
