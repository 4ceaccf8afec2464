/**
 * The map stays complete: every module under the server's services/, store/ and adapters/ is named in
 * docs/architecture.md or in the README of its room, and a module added without a line is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { unlistedModules } from './unlisted-modules.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'edupass-map-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
};

describe('the map of the server', () => {
  it('names every module under services/, store/ and adapters/', () => {
    expect(unlistedModules(root)).toEqual([]);
  });

  it('reports a module added without a line, until the map or its room names it', () => {
    write('docs/architecture.md', '| sessions | `tokens` (sessions) | `store/sessions/`: `sessions` |\n');
    write('packages/server/src/services/sessions/tokens.ts', 'export {};\n');
    write('packages/server/src/store/sessions/sessions.ts', 'export {};\n');
    write('packages/server/src/store/migrations/001-accounts.ts', 'export {};\n');
    write('packages/server/src/services/edu/school/seating-plans.ts', 'export {};\n');
    write('packages/server/src/adapters/fax.ts', 'export {};\n');
    expect(unlistedModules(scratch)).toEqual(['adapters/fax.ts', 'services/edu/school/seating-plans.ts']);

    // Its room's README (or one above it) may name it, with or without the extension or a path.
    write('packages/server/src/services/edu/README.md', '| `school/seating-plans.ts` | where pupils sit |\n');
    write('docs/architecture.md', '| sessions | `tokens` | `store/sessions/`: `sessions` |\n| adapters | `fax` |\n');
    expect(unlistedModules(scratch)).toEqual([]);

    // A name that only appears in prose, not as code, does not count.
    write('packages/server/src/services/edu/README.md', 'Seating plans live in seating-plans.ts.\n');
    expect(unlistedModules(scratch)).toEqual(['services/edu/school/seating-plans.ts']);
  });
});
