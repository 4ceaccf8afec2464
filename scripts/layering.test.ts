/**
 * The import rules of docs/architecture.md ("Layers"), held by Biome: `noRestrictedImports` per folder
 * (biome.json's overrides) and a GritQL plugin for SQL outside store/ (scripts/layering/). The
 * repository has no violation, and each kind of violation, written into a scratch copy of the layout,
 * is reported with its rule's message.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const biome = join(root, 'node_modules/.bin/biome');

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

const LAYERING = (d: Diagnostic) => d.category === 'lint/style/noRestrictedImports' || d.category === 'plugin';

/** Biome's lint diagnostics of the layering rules under `paths`, run in `cwd`. */
const layeringProblems = (cwd: string, paths: string[]) => {
  const run = spawnSync(biome, ['lint', '--reporter=json', '--max-diagnostics=none', ...paths], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
  return report.diagnostics.filter(LAYERING).map((d) => `${d.location.path}: ${d.message}`);
};

const scratch = mkdtempSync(join(tmpdir(), 'edupass-layering-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
};

describe('the layering rules', () => {
  it('hold on the repository: no package or server folder imports past its layer', () => {
    expect(layeringProblems(root, ['packages', 'scripts', 'bench'])).toEqual([]);
  }, 120_000);

  it('report each kind of violation with the rule that it breaks', () => {
    cpSync(join(root, 'biome.json'), join(scratch, 'biome.json'));
    cpSync(join(root, 'scripts/layering'), join(scratch, 'scripts/layering'), { recursive: true });
    write('packages/console/src/leak.ts', "export { useI18n } from '@edupass/web/i18n/i18n.ts';\n");
    write('packages/web/src/leak.ts', "export { ConsoleApp } from '@edupass/console/app.tsx';\n");
    write('packages/protocol/src/leak.ts', "export { loginByPassword } from '@edupass/account';\n");
    write('packages/server/src/oidc/leak.ts', "export { findApplication } from '../store/identity/applications.ts';\n");
    write('packages/server/src/store/leak.ts', "export { audit } from '../services/admin/operations.ts';\n");
    write('packages/server/src/services/leak.ts', "export { useTestServer } from '@edupass/test-kit/harness';\n");
    write(
      'packages/server/src/services/sql.ts',
      "export const pids = (ctx: { db: { selectFrom(t: string): unknown } }) => ctx.db.selectFrom('products');\n",
    );
    write('packages/server/src/services/sql.test.ts', "export { useTestServer } from '@edupass/test-kit/harness';\n");
    const problems = layeringProblems(scratch, ['packages']);
    expect(problems.sort()).toEqual([
      expect.stringMatching(
        /^packages\/console\/src\/leak\.ts: The console may import @edupass\/protocol, @edupass\/account, @edupass\/captcha, @edupass\/ui-kit/,
      ),
      expect.stringMatching(/^packages\/protocol\/src\/leak\.ts: protocol may import nothing of ours/),
      expect.stringMatching(/^packages\/server\/src\/oidc\/leak\.ts: Only services\/ reach the store/),
      expect.stringMatching(/^packages\/server\/src\/services\/leak\.ts: The server may import @edupass\/protocol/),
      expect.stringMatching(/^packages\/server\/src\/services\/sql\.ts: SQL belongs in store\//),
      expect.stringMatching(/^packages\/server\/src\/store\/leak\.ts: store\/ holds queries only/),
      expect.stringMatching(/^packages\/web\/src\/leak\.ts: The web client may import/),
    ]);
  }, 120_000);
});
