#!/usr/bin/env node
// The `edupass` command. An installed package ships dist/; inside the repository it is built first
// when missing (scripts/build.mjs, as `npm start` does).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url).pathname;
const buildScript = new URL('../../../scripts/build.mjs', import.meta.url).pathname;
if (!existsSync(cli)) {
  if (!existsSync(buildScript)) {
    console.error(`edupass: ${cli} is missing; this install of @edupass/server is incomplete (reinstall it).`);
    process.exit(1);
  }
  const built = spawnSync(process.execPath, [buildScript], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const { main } = await import(cli);
await main(process.argv.slice(2));
