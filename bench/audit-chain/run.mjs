/** Bundles chain.ts (it imports the server's TypeScript) and runs it: `node bench/audit-chain/run.mjs`. */
import { join } from 'node:path';
import { runServerScript } from '../run-server-script.mjs';

const here = import.meta.dirname;
await runServerScript(join(here, 'chain.ts'), { dirname: join(here, '../../packages/server/src/store') });
