import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { sdkSize } from '../../../scripts/sdk-size.mjs';

// The budget of the issue: every feature in ≤ 4 KB gzip, bundled as a site would (minified ESM).
it('bundles to at most 4 KB gzip', async () => {
  const entry = JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)));
  const { gzip } = await sdkSize(`export * from ${entry};`, fileURLToPath(new URL('.', import.meta.url)));
  expect(gzip).toBeLessThanOrEqual(4096);
});
