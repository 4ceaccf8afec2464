/** Bundles queries.ts (it imports the server's TypeScript) and runs it: `node bench/console/run.mjs`. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const serverPackage = JSON.parse(readFileSync(join(root, 'packages/server/package.json'), 'utf8'));
const external = Object.keys(serverPackage.dependencies).filter((name) => !name.startsWith('@edupass/'));
const outDir = join(root, '.tmp', `bench-console-${process.pid}`);
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, 'queries.mjs');
await build({
  entryPoints: [join(here, 'queries.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
  define: { 'import.meta.dirname': JSON.stringify(join(root, 'packages/server/src/store')) },
});
const run = spawnSync(process.execPath, [outfile], { stdio: 'inherit', env: process.env });
rmSync(outDir, { recursive: true, force: true });
process.exit(run.status ?? 1);
