#!/usr/bin/env node
// Runs the built CLI, building it first when needed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('../../../', import.meta.url).pathname;
const cli = new URL('../dist/cli.js', import.meta.url).pathname;
if (!existsSync(cli)) {
  const built = spawnSync(process.execPath, [`${root}scripts/build.mjs`], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const { main } = await import(cli);
await main(process.argv.slice(2));
