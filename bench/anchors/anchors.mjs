/**
 * The benchmarks' comparison anchors (other projects' SDKs, Lighthouse): pinned in this folder's
 * package.json and installed here on demand, never among the product's dependencies. A folder of their
 * own, not bench/node_modules: installed there, their own dependencies (another Kysely, @types/pg)
 * would have won over the root's for every bench source below bench/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the anchors are installed (their node_modules is inside): the resolve folder of their bundles. */
export const anchorsDir = dirname(fileURLToPath(import.meta.url));

/** The anchors pinned in this folder's package.json. */
const pinned = () => Object.keys(JSON.parse(readFileSync(join(anchorsDir, 'package.json'), 'utf8')).dependencies);

/** Installs the pinned anchors unless every one of `names` (by default every pinned one) is there already. */
export const ensureAnchors = (names = pinned()) => {
  if (names.every((name) => existsSync(join(anchorsDir, 'node_modules', name, 'package.json')))) return;
  console.log('installing the anchors into bench/anchors/node_modules …');
  execFileSync('npm', ['install', '--prefix', anchorsDir, '--no-audit', '--no-fund', '--ignore-scripts'], {
    stdio: 'inherit',
  });
};

/** An anchor's module, imported from this folder (installed first if missing). */
export const importAnchor = async (name) => {
  ensureAnchors([name]);
  return import(pathToFileURL(createRequire(join(anchorsDir, 'package.json')).resolve(name)).href);
};
