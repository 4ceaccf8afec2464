#!/usr/bin/env node
/**
 * A district at 08:00 (README.md): bundles the server as bench/server does, then runs district.ts
 * (bundled too: it imports the test kit's sign-in flows and counters). `npm run bench:district`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runServerScript } from '../run-server-script.mjs';
import { bundleBench } from '../server/setup.mjs';

const here = import.meta.dirname;
const rootPackage = JSON.parse(readFileSync(join(here, '../../package.json'), 'utf8'));
process.env.DISTRICT_SERVER_BUNDLE = join(await bundleBench(), 'server.mjs');
// The test kit's own dependencies (vitest's expect, esbuild, jsQR) stay in node_modules.
// `import.meta.dirname` in the bundle stands for the test kit's, which finds the migrations from it.
await runServerScript(join(here, 'district.ts'), {
  dirname: join(here, '../../packages/test-kit/src'),
  external: Object.keys(rootPackage.devDependencies),
});
