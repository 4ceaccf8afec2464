/**
 * No number box in the web client: on a phone a tap puts the cursor after the value shown, so typing
 * "3" into the "1" of a grade gave 13 (an adult class) and "30" into a guardian's "60" gave 6030.
 * Numbers a person chooses are lists (a class's grade, the daily minutes); numbers a person types
 * (codes, an account ID) are text boxes with `inputMode="numeric"` that start empty.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const SOURCES = join(import.meta.dirname, '..');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });

test('no screen of the web client has an <input type="number">', () => {
  const offending = sourceFiles(SOURCES).filter((file) =>
    /type=(?:"number"|\{'number'\})|type:\s*'number'/.test(readFileSync(file, 'utf8')),
  );
  expect(offending.map((file) => file.slice(SOURCES.length + 1))).toEqual([]);
});
