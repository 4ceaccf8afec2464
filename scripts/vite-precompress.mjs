// A vite plugin: after a build, writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file
// worth compressing, at the strongest levels (it is done once), for the server to send as they are
// (packages/server/src/http/web-static.ts).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this the encoding's own overhead eats what it saves. */
const MIN_BYTES = 256;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Compresses `files` (paths), in parallel on libuv's threads; resolves to how many it compressed. */
export const precompressFiles = async (files) => {
  const done = await Promise.all(
    files
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file) => {
        const body = await readFile(file);
        if (body.length < MIN_BYTES) return false;
        const params = {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        };
        await writeFile(`${file}.br`, await brotli(body, { params }));
        await writeFile(`${file}.gz`, await gzipped(body, { level: 9 }));
        return true;
      }),
  );
  return done.filter(Boolean).length;
};

/** @returns {import('vite').Plugin} */
export const precompress = () => {
  let outDir = 'dist';
  return {
    name: 'edupass-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    // Only this build's files: the web client and the console are built into one folder in turn.
    writeBundle(options, bundle) {
      const dir = options.dir ?? outDir;
      return precompressFiles(Object.keys(bundle).map((name) => join(dir, name))).then(() => undefined);
    },
  };
};
