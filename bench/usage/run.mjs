/** Bundles ingest.ts (it imports the server's TypeScript) and runs it: `node bench/usage/run.mjs`. */
import { join } from 'node:path';
import { runServerScript } from '../run-server-script.mjs';

const here = import.meta.dirname;
// The server's test helpers resolve their files from their own directory.
await runServerScript(join(here, 'ingest.ts'), {
  dirname: join(here, '../../packages/server/src/testing'),
  external: ['esbuild', 'autocannon'],
});
