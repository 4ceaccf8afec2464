/** Bundles open.ts (it imports the server's TypeScript) and runs it: `node bench/sealed-records/run.mjs`. */
import { join } from 'node:path';
import { runServerScript } from '../run-server-script.mjs';

const here = import.meta.dirname;
await runServerScript(join(here, 'open.ts'), { dirname: join(here, '../../packages/server/src/store') });
