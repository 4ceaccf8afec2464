/**
 * The captcha SDK as a site bundles it (esbuild, minified ESM, split so FingerprintJS is its own chunk):
 * of the protocol it carries its own routes, texts and codes, never the route table or the validation
 * rules. bench/captcha/run.mjs prints the same sizes.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gzipSize, shippedBundle } from '../../../scripts/sdk-size.mjs';

const bundle = () =>
  shippedBundle({
    entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
    target: 'es2022',
    splitting: true,
    outdir: 'out',
    metafile: true,
  });

/** The SDK's own chunk: its gzip size and the source files that put bytes in it. */
const sdkChunk = async () => {
  const { outputFiles, metafile } = await bundle();
  const [name, output] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint !== undefined) ?? [];
  const file = outputFiles.find((f) => name !== undefined && f.path.endsWith(name.replace(/^out/, '')));
  if (!file || !output) throw new Error('no entry chunk');
  const inputs = Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
  return { gzip: gzipSize(file.contents), inputs };
};

describe('the captcha bundle', () => {
  it('takes from the protocol only what it uses, and FingerprintJS loads apart', async () => {
    const { inputs } = await sdkChunk();
    const protocol = inputs
      .filter((path) => path.includes('packages/protocol/'))
      .map((path) => path.replace(/.*packages\/protocol\/src\//, ''))
      .sort();
    expect(protocol).toEqual([
      'captcha-routes.ts',
      'captcha.ts',
      'client-codes.ts', // the core client codes' names, never the education and staff group's
      'constants.ts',
      'route-fields.ts',
      'server-code-numbers.ts', // its captcha codes only (the next test holds the size)
      'wire-error.ts',
    ]);
    expect(inputs.filter((path) => path.includes('fingerprintjs'))).toEqual([]);
  });

  // It carries the core client codes' names (client-codes.ts) and not the education and staff group's
  // (school-staff-codes.ts): a code added there grows no byte of it (the list above holds that).
  it('stays under 9 KB gzip', async () => {
    const { gzip } = await sdkChunk();
    console.info(`captcha SDK: ${gzip} B gzip (budget ${9 * 1024}, ${9 * 1024 - gzip} B left)`);
    expect(gzip).toBeLessThan(9 * 1024);
  });
});
