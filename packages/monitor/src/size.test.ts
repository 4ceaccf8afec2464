import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { sdkSize } from '../../../scripts/sdk-size.mjs';

// The budget of the issue: web-vitals included, ≤ 5 KB gzip, bundled as a site would (minified ESM).
it('bundles to at most 5 KB gzip, web-vitals included', async () => {
  const entry = JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)));
  const { gzip } = await sdkSize(`export * from ${entry};`, fileURLToPath(new URL('.', import.meta.url)));
  expect(gzip).toBeLessThanOrEqual(5120);
});
