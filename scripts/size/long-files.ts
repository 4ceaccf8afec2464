// The size rule for files, held everywhere — source files a newcomer cannot read in one sitting: every module of the packages, the scripts and
// the benches stays at or under LONG_FILE_LINES lines. Tests, type declarations and the locale
// catalogues (one line per text, read by key) are the exceptions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const LONG_FILE_LINES = 400;

const ROOTS = ['packages', 'scripts', 'bench'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'data', 'results', 'web-build']);
const SOURCE = /\.(?:ts|tsx|mts|mjs|js|cjs)$/;
const EXEMPT = [/\.test\.tsx?$/, /\.test-setup\.ts$/, /\.d\.mts$/, /\.d\.ts$/, /\/i18n\/locales\//];

const sources = (root: string, dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      // packages/server/web is the built web client and console, not a source.
      const built = relative(root, path) === join('packages', 'server', 'web');
      return SKIPPED_FOLDERS.has(name) || built ? [] : sources(root, path);
    }
    return SOURCE.test(name) ? [path] : [];
  });

/** `path: lines` for each source file of `root` longer than `limit` lines, sorted. */
export const longFiles = (root: string, limit = LONG_FILE_LINES): string[] =>
  ROOTS.flatMap((folder) => {
    const dir = join(root, folder);
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? sources(root, dir) : [];
  })
    .map((path) => ({ path: relative(root, path), lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
    .filter(({ path, lines }) => lines > limit && !EXEMPT.some((pattern) => pattern.test(`/${path}`)))
    .map(({ path, lines }) => `${path}: ${lines}`)
    .sort();
