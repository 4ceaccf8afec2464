#!/usr/bin/env node
/**
 * Builds the SDK packages to what they publish: `dist/` with ES modules and `.d.ts` files, one per
 * source module (so a site's bundler still drops what it does not import), compiled by TypeScript
 * from each package's entries in `exports` — only what the entries reach is emitted, never a test.
 * A package whose exports offer `require` (@edupass/node) also gets `dist/cjs/`: the same modules
 * compiled to CommonJS, with their own declarations and a package.json saying `commonjs`.
 *
 * Inside the repository nothing needs this build: every tool resolves the packages through the
 * `@edupass/source` export condition to their TypeScript sources (see scripts/source-condition.mjs).
 *
 *   node scripts/build-packages.mjs            # every SDK
 *   node scripts/build-packages.mjs account    # one (its dependencies' dist must exist)
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { SOURCE_CONDITION } from './source-condition.mjs';

const root = new URL('..', import.meta.url).pathname;
/** In build order: the others' declarations import @edupass/protocol's. */
export const SDK_PACKAGES = ['protocol', 'account', 'captcha', 'tracker', 'monitor', 'node'];
/**
 * Private packages, never published or built here: `ui-kit` (bundled from its sources into the web
 * client and the console by their vite builds, scripts/build.mjs) and `test-kit` (tests only).
 */
export const PRIVATE_PACKAGES = ['ui-kit', 'test-kit'];

const base = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);

/** TypeScript's own lib files, parsed once for every package built in this process (most of the time). */
const libFiles = new Map();
const compilerHost = (options) => {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (file, ...rest) => {
    if (!file.includes('/typescript/lib/')) return getSourceFile(file, ...rest);
    if (!libFiles.has(file)) libFiles.set(file, getSourceFile(file, ...rest));
    return libFiles.get(file);
  };
  return host;
};

const filesUnder = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/**
 * Sources import siblings as `./x.ts`; TypeScript rewrites that in the JavaScript but not in the
 * declarations. Current TypeScript reads either; `./x.js` is what older versions and other tools expect.
 */
const rewriteDeclarationSpecifiers = (dist) => {
  for (const file of filesUnder(dist).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1$2.js$3');
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
};

export const buildPackage = (name) => {
  if (PRIVATE_PACKAGES.includes(name)) throw new Error(`@edupass/${name} is private: the apps bundle it from sources`);
  const dir = join(root, 'packages', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entries = Object.values(pkg.exports).map((target) => join(dir, target[SOURCE_CONDITION]));
  // Without a sibling's declarations its types would silently become `any` in ours.
  for (const dependency of Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@edupass/'))) {
    const sibling = join(root, 'packages', dependency.slice('@edupass/'.length), 'dist', 'index.d.ts');
    if (!existsSync(sibling)) throw new Error(`build ${dependency} before @edupass/${name} (${sibling} is missing)`);
  }
  const dist = join(dir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  emit(entries, dir, dist, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
  if (hasCommonJsBuild(pkg)) {
    const cjs = join(dist, 'cjs');
    emit(entries, dir, cjs, { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 });
    // The nearest package.json decides how Node and TypeScript read a `.js`/`.d.ts` file.
    writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  }
};

/** A package whose exports offer `require` gets a CommonJS build in `dist/cjs/` besides its ES modules. */
const hasCommonJsBuild = (pkg) => Object.values(pkg.exports).some((target) => target.require !== undefined);

const emit = (entries, dir, outDir, moduleOptions) => {
  const options = {
    ...base.options,
    ...moduleOptions,
    noEmit: false,
    declaration: true,
    rewriteRelativeImportExtensions: true,
    // Published code: syntax every current browser and Node 20 run, without downlevel helpers.
    target: ts.ScriptTarget.ES2022,
    rootDir: join(dir, 'src'),
    outDir,
    // Sibling packages resolve to their built declarations, as they will for a site.
    customConditions: [],
    types: [],
    // `npm run typecheck` checks the sources; emitting alone still reports what the declarations need.
    noCheck: true,
  };
  const { diagnostics } = ts.createProgram(entries, options, compilerHost(options)).emit();
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`${dir} did not build:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
  rewriteDeclarationSpecifiers(outDir);
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = process.argv.slice(2);
  for (const name of wanted.length ? wanted : SDK_PACKAGES) {
    const started = Date.now();
    process.stdout.write(`building @edupass/${name}… `);
    buildPackage(name);
    console.log(`done in ${Date.now() - started} ms`);
  }
}
