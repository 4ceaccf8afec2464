// The server's modules that no map names: every source file under services/, store/ and adapters/ of
// packages/server/src must be named — as `name` or `name.ts`, or with its path — in
// docs/architecture.md or in a README.md of its own folder or a folder above it (up to src/).
// store/migrations/ is the exception: its index.ts lists the migrations in the order they run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

const MAPPED = ['services', 'store', 'adapters'];

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$|\.test-setup\.ts$/.test(name) ? [path] : [];
  });

/** Whether `text` names the module at `path` (relative to src/): `name`, `name.ts`, or a path ending in it. */
const names = (text: string, path: string) => {
  const stem = basename(path, '.ts');
  const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\`(?:[\\w./-]*/)?${escaped}(?:\\.ts)?\``).test(text);
};

/** The READMEs that may name a file: its folder's and each folder's above it, up to `src`. */
const readmesAbove = (src: string, file: string) => {
  const found: string[] = [];
  for (let dir = dirname(file); dir.startsWith(src) && dir !== src; dir = dirname(dir)) {
    const readme = join(dir, 'README.md');
    if (existsSync(readme)) found.push(readFileSync(readme, 'utf8'));
  }
  return found;
};

/** The paths (relative to packages/server/src) of `root`'s modules that no map names. */
export const unlistedModules = (root: string): string[] => {
  const src = join(root, 'packages/server/src');
  const map = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  return MAPPED.filter((folder) => existsSync(join(src, folder)))
    .flatMap((folder) => sources(join(src, folder)))
    .filter((file) => ![map, ...readmesAbove(src, file)].some((text) => names(text, relative(src, file))))
    .map((file) => relative(src, file))
    .sort();
};
