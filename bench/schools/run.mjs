/** Bundles pupils.ts (it imports the server's TypeScript) and runs it: `node bench/schools/run.mjs`. */
import { join } from 'node:path';
import { runServerScript } from '../run-server-script.mjs';

const here = import.meta.dirname;
await runServerScript(join(here, 'pupils.ts'), { dirname: join(here, '../../packages/server/src/store') });
