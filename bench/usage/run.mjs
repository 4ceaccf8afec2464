/** Bundles ingest.ts (it imports the server's TypeScript) and runs it: `node bench/usage/run.mjs`. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const serverPackage = JSON.parse(readFileSync(join(root, 'packages/server/package.json'), 'utf8'));
const external = [
  ...Object.keys(serverPackage.dependencies).filter((name) => !name.startsWith('@edupass/')),
  'esbuild',
  'autocannon',
];
const outDir = join(root, '.tmp', `bench-ingest-${process.pid}`);
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, 'ingest.mjs');
await build({
  entryPoints: [join(here, 'ingest.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
  // The bundle lives in .tmp/, so import.meta.dirname would point there: keep the server's own paths.
  define: { 'import.meta.dirname': JSON.stringify(join(root, 'packages/server/src/testing')) },
});
const run = spawnSync(process.execPath, [outfile], { stdio: 'inherit', env: process.env });
rmSync(outDir, { recursive: true, force: true });
process.exit(run.status ?? 1);
