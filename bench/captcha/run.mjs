/**
 * Captcha benchmarks: `node bench/captcha/run.mjs`.
 *  1. slide-puzzle generation time and image bytes (bundles puzzle.ts, which imports the server's drawer);
 *  2. gzip size of the captcha package as a site ships it: esbuild, minified ESM for the browser,
 *     code-split so FingerprintJS is its own lazily loaded chunk, gzip -9.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { gzipSize, shippedBundle } from '../../scripts/sdk-size.mjs';
import { ESBUILD_CONDITIONS } from '../../scripts/source-condition.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const outDir = join(root, '.tmp', `bench-captcha-${process.pid}`);
mkdirSync(outDir, { recursive: true });
try {
  const outfile = join(outDir, 'puzzle.mjs');
  await build({
    entryPoints: [join(here, 'puzzle.ts')],
    outfile,
    bundle: true,
    conditions: ESBUILD_CONDITIONS,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['sharp'],
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, [outfile], { stdio: 'inherit', env: process.env, cwd: root });
  if (run.status !== 0) process.exitCode = run.status ?? 1;

  const result = await shippedBundle({
    entryPoints: [join(root, 'packages/captcha/src/index.ts')],
    target: 'es2022',
    splitting: true,
    outdir: join(outDir, 'sdk'),
    metafile: true,
    logLevel: 'warning',
  });
  console.log('\ncaptcha package (esbuild minified ESM, split, gzip -9)');
  let total = 0;
  for (const file of result.outputFiles) {
    const gz = gzipSize(file.contents);
    total += gz;
    const inputs = Object.keys(
      result.metafile.outputs[Object.keys(result.metafile.outputs).find((k) => file.path.endsWith(basename(k))) ?? '']
        ?.inputs ?? {},
    );
    const label = inputs.some((i) => i.includes('fingerprintjs'))
      ? 'FingerprintJS chunk (loaded when a rule is asked)'
      : 'SDK';
    console.log(
      `  ${basename(file.path).padEnd(24)} ${String(file.contents.length).padStart(7)} B min  ${String(gz).padStart(6)} B gzip  ${label}`,
    );
  }
  console.log(`  total                    ${String(total).padStart(22)} B gzip`);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
