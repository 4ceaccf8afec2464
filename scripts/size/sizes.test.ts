/**
 * The size rule for functions, held by a test in the folders listed here: no function over 80 lines. A
 * folder joins the list once it keeps it; a function past the limit is reported with its place, its
 * name and its length. (No source file anywhere is over 400 lines: long-files.test.ts.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { longFunctions } from './sizes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HELD = ['packages/server/src/services/edu/roster'];

const scratch = mkdtempSync(join(tmpdir(), 'edupass-sizes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
};

/** A body of `n` lines in all, its opening and closing lines included. */
const body = (n: number) => `{\n${'  step();\n'.repeat(n - 2)}}`;

describe('the size rules', () => {
  it.each(HELD)('hold in %s: no function over 80 lines', (dir) => {
    expect(longFunctions(root, dir, 80)).toEqual([]);
  });

  it('report each kind of function past the limit, nested ones too, and leave tests and short ones alone', () => {
    write(
      'src/long.ts',
      [
        `export const arrow = async () => ${body(81)};`,
        `export function declared() ${body(81)}`,
        `export class Kept { method() ${body(81)} }`,
        `export const fits = () => ${body(80)};`,
        `export const outer = () => { const inner = () => ${body(81)}; return inner; };`,
      ].join('\n'),
    );
    write('src/long.test.ts', `describe('cases', () => ${body(200)});\n`);
    expect(longFunctions(scratch, 'src', 80)).toEqual([
      'src/long.ts:1 arrow (81 lines)',
      'src/long.ts:82 declared (81 lines)',
      'src/long.ts:163 method (81 lines)',
      'src/long.ts:324 outer (81 lines)',
      'src/long.ts:324 inner (81 lines)',
    ]);
  });
});
