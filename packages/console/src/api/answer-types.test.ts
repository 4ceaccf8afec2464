/**
 * The console is typed by the protocol's answer schemas: the same program compiled with one admin
 * answer's schema changed (a field renamed in `userDetailAnswer`) fails exactly where a screen reads
 * that field. TypeScript's own compiler, over the console's real sources.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const answers = fileURLToPath(new URL('../../../protocol/src/admin-answers.ts', import.meta.url));
const entries = ['../main.tsx', '../vite-env.d.ts'].map((name) => fileURLToPath(new URL(name, import.meta.url)));

const options = () => {
  const file = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(file.config, ts.sys, root).options;
};

/** The console's type errors, with `admin-answers.ts` read as `edit` makes it. */
const consoleErrors = (edit: (source: string) => string, oldProgram?: ts.Program) => {
  const compilerOptions = options();
  const host = ts.createCompilerHost(compilerOptions);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => {
    const text = readFile(name);
    return text !== undefined && name === answers ? edit(text) : text;
  };
  const program = ts.createProgram({ rootNames: entries, options: compilerOptions, host, oldProgram });
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName.includes('/packages/console/src/'))
    .map((d) => `${d.file?.fileName.split('/packages/')[1]}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  return { program, errors };
};

describe('admin answers typed from the protocol', () => {
  it('a renamed field of an admin answer fails the console build where a screen reads it', { timeout: 300_000 }, () => {
    const original = readFileSync(answers, 'utf8');
    expect(original).toContain('has_password: boolean(),');
    const { program, errors: before } = consoleErrors((text) => text);
    expect(before).toEqual([]);
    const { errors } = consoleErrors(
      (text) => text.replace('has_password: boolean(),', 'password_set: boolean(),'),
      program,
    );
    expect(errors).toEqual([expect.stringMatching(/^console\/src\/screens\/user-page\.tsx: .*has_password/)]);
  });

  it('a field whose type changes fails where the screen relies on the old type', { timeout: 300_000 }, () => {
    const { errors } = consoleErrors((text) =>
      text.replace(
        /(export const userPageAnswer = object\(\{ items: list\(userRow\) \}, \{ next_cursor: )integer\(\)/,
        '$1text()',
      ),
    );
    expect(errors).toEqual([expect.stringMatching(/^console\/src\/screens\/users\.tsx: Type 'string/)]);
  });
});
