/** No source file is longer than a newcomer can read in one sitting (scripts/map/long-files.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LONG_FILE_LINES, longFiles } from './long-files.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'edupass-long-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const write = (path: string, lines: number) => {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), 'export {};\n'.repeat(lines));
};

describe('the length of source files', () => {
  it(`keeps every module of the repository at or under ${LONG_FILE_LINES} lines`, () => {
    expect(longFiles(root)).toEqual([]);
  });

  it('reports a long module, and passes tests, locale catalogues and built output', () => {
    write('packages/server/src/services/long.ts', LONG_FILE_LINES + 1);
    write('packages/console/src/screens/long.tsx', LONG_FILE_LINES + 30);
    write('bench/server/long.mjs', LONG_FILE_LINES + 2);
    write('packages/server/src/services/just-right.ts', LONG_FILE_LINES);
    write('packages/server/src/services/long.test.ts', 2 * LONG_FILE_LINES);
    write('packages/web/src/i18n/locales/zh-CN.ts', 2 * LONG_FILE_LINES);
    write('packages/server/web/assets/app.js', 2 * LONG_FILE_LINES);
    write('packages/server/node_modules/x/index.js', 2 * LONG_FILE_LINES);
    expect(longFiles(scratch)).toEqual([
      `bench/server/long.mjs: ${LONG_FILE_LINES + 2}`,
      `packages/console/src/screens/long.tsx: ${LONG_FILE_LINES + 30}`,
      `packages/server/src/services/long.ts: ${LONG_FILE_LINES + 1}`,
    ]);
  });
});
