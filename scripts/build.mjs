#!/usr/bin/env node
// Builds what `npm start` runs and what the server package ships: the server bundle (workspace
// sources bundled, npm dependencies left to node_modules) and, when present, the web client and the
// operator console, copied together into the server package as `web/` so an installed server serves them.
// Both bundle @edupass/ui-kit (the hooks, status components and texts they share) from its sources.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { SERVER_BUNDLE } from './server-bundle.mjs';

const root = new URL('..', import.meta.url).pathname;

const started = Date.now();
process.stdout.write('building server… ');
await build({
  entryPoints: Object.fromEntries(
    ['main', 'cli']
      .map((name) => [name, `${root}packages/server/src/${name}.ts`])
      .filter(([, file]) => existsSync(file)),
  ),
  outdir: `${root}packages/server/dist`,
  ...SERVER_BUNDLE,
  sourcemap: true,
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
// EDUPASS_WEB_BUILD names a folder where both are already built from these sources (a test run's one
// build, packages/web/e2e/support/build-app.ts): it is copied as it is instead of built again.
const prebuilt = process.env.EDUPASS_WEB_BUILD;
if (prebuilt) {
  for (const page of ['index.html', 'console.html'])
    if (!existsSync(`${prebuilt}/${page}`)) {
      console.error(`EDUPASS_WEB_BUILD=${prebuilt} holds no ${page}`);
      process.exit(1);
    }
  rmSync(`${root}packages/server/web`, { recursive: true, force: true });
  cpSync(prebuilt, `${root}packages/server/web`, { recursive: true });
  console.log(`web client and console copied from ${prebuilt}`);
} else if (existsSync(`${root}packages/web/index.html`) && buildPages('web')) {
  rmSync(`${root}packages/server/web`, { recursive: true, force: true });
  cpSync(`${root}packages/web/dist`, `${root}packages/server/web`, { recursive: true });
  if (buildPages('console')) cpSync(`${root}packages/console/dist`, `${root}packages/server/web`, { recursive: true });
}
