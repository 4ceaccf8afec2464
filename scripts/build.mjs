#!/usr/bin/env node
// Builds what `npm start` runs and what the server package ships: the server bundle (workspace
// sources bundled, npm dependencies left to node_modules) and, when present, the web client and the
// operator console, copied together into the server package as `web/` so an installed server serves them.
// Both bundle @edupass/ui-kit (the hooks, status components and texts they share) from its sources.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { ESBUILD_CONDITIONS } from './source-condition.mjs';

const root = new URL('..', import.meta.url).pathname;
const serverPackage = JSON.parse(readFileSync(`${root}packages/server/package.json`, 'utf8'));
const external = Object.keys(serverPackage.dependencies).filter((name) => !name.startsWith('@edupass/'));

const started = Date.now();
process.stdout.write('building server… ');
await build({
  entryPoints: Object.fromEntries(
    ['main', 'cli']
      .map((name) => [name, `${root}packages/server/src/${name}.ts`])
      .filter(([, file]) => existsSync(file)),
  ),
  outdir: `${root}packages/server/dist`,
  bundle: true,
  conditions: ESBUILD_CONDITIONS,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, 'pino-pretty'],
  logLevel: 'warning',
});
console.log(`done in ${Date.now() - started} ms`);

/** Builds a page package with its vite config into its `dist/`; answers whether it was there to build. */
const buildPages = (name) => {
  if (!existsSync(`${root}packages/${name}/vite.config.ts`)) return false;
  process.stdout.write(`building ${name}… `);
  const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: `${root}packages/${name}`,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  console.log('done');
  return true;
};

// The web client and the operator console (console.html), served side by side from one folder.
if (existsSync(`${root}packages/web/index.html`) && buildPages('web')) {
  rmSync(`${root}packages/server/web`, { recursive: true, force: true });
  cpSync(`${root}packages/web/dist`, `${root}packages/server/web`, { recursive: true });
  if (buildPages('console')) cpSync(`${root}packages/console/dist`, `${root}packages/server/web`, { recursive: true });
}
