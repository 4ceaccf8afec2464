/**
 * Runs a bench script that imports the server's TypeScript: bundles it with esbuild (workspace sources
 * in, the server's npm dependencies out), runs the bundle with this Node, removes it, and exits with
 * its status; the script's own arguments pass on to the bundle. `dirname` stands in for `import.meta.dirname`, which would otherwise point at the bundle.
 * The bundle is written inside packages/server, so the dependencies npm keeps under that workspace
 * (packages/server/node_modules) resolve as they do for the server. Node's own flags pass on to the
 * bundle's process: `node --cpu-prof --cpu-prof-dir=<dir> bench/<bench>/run.mjs` profiles the bench.
 * The repository's own build scripts (scripts/*.mjs, which find the packages from their own
 * `import.meta.url`) stay outside the bundle, imported from where they are.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ESBUILD_CONDITIONS } from '../scripts/source-condition.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Imports of scripts/*.mjs are left to Node, by absolute path. */
const scriptsInPlace = {
  name: 'scripts-in-place',
  setup(build) {
    build.onResolve({ filter: /\/scripts\/[^/]+\.mjs$/ }, (args) => ({
      path: join(args.resolveDir, args.path),
      external: true,
    }));
  },
};

export const runServerScript = async (entry, { dirname: dir, external = [] }) => {
  const serverPackage = JSON.parse(readFileSync(join(root, 'packages/server/package.json'), 'utf8'));
  const outDir = join(root, 'packages/server/.tmp', `bench-${basename(entry, '.ts')}-${process.pid}`);
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    conditions: ESBUILD_CONDITIONS,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...Object.keys(serverPackage.dependencies).filter((name) => !name.startsWith('@edupass/')), ...external],
    logLevel: 'warning',
    define: { 'import.meta.dirname': JSON.stringify(dir) },
    plugins: [scriptsInPlace],
  });
  const run = spawnSync(process.execPath, [...process.execArgv, outfile, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: process.env,
  });
  rmSync(outDir, { recursive: true, force: true });
  process.exit(run.status ?? 1);
};
