// The size rule for functions, measured with the TypeScript compiler's own parser: no function
// (declaration, expression, arrow, method, accessor, constructor) longer than a number of lines (the
// rule for files, held everywhere, is long-files.ts). A function's length runs from its first line (the
// parameters, or `function`) to its closing line, nested functions included, as ESLint's
// max-lines-per-function counts it. Test files are left out: a `describe` callback is a list of cases.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** The `.ts` and `.tsx` sources under `dir`, tests left out. */
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });

/** The name a reader finds the function by: its own, its variable's, property's or method's. */
const nameOf = (node: ts.Node): string => {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
};

const isFunction = (node: ts.Node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** The functions of the sources under `dir` longer than `max` lines: `path:line name (n lines)`. */
export const longFunctions = (root: string, dir: string, max: number): string[] =>
  sources(join(root, dir)).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      if (isFunction(node)) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > max) found.push(`${relative(root, path)}:${first + 1} ${nameOf(node)} (${lines} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    return found;
  });
